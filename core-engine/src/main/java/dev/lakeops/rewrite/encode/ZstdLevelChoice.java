package dev.lakeops.rewrite.encode;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import java.util.stream.IntStream;

/**
 * Compresses the pages of a file's columns with zstd at the table's level, or at a lower level, 2
 * or 1 (the level below the table's, and level 1), for a column whose pages that level compresses
 * no larger, or barely larger. At level 3, parquet-java's default, zstd's match finder looks for
 * 5-byte matches; in pages of hex or base64 ids, random numbers and the like it finds many short
 * chance matches that cost time and code no smaller than literals do: on such columns level 2
 * (6-byte matches) wrote frames as small or smaller, 1.4 to 7 times faster, and on some (ids of a
 * few million, prefixed hex) level 1 smaller still, about twice as fast as level 3. Other columns
 * gain from level 3 and keep it. A column a lower level compresses to within 1.6 % of the smallest
 * frame takes that level: on pages of small longs, 1.4 % larger frames in a fifth less time.
 *
 * <p>Each column decides for itself ({@link Column}): its first page, and later pages at growing
 * intervals, is probed: its first {@value #PROBE_SAMPLE_BYTES} bytes (the whole page when it is no
 * longer) are compressed at every candidate level and the lowest level whose frame is within
 * 1/{@value #NEAR_SMALLEST_DIVISOR} of the smallest wins; the page, and the pages up to the next
 * probe, are compressed at that level. The next probe comes {@value #PROBE_INTERVAL} pages later,
 * and twice as many pages later each time a probe keeps the level (up to {@value
 * #LONGEST_PROBE_INTERVAL}): a column's pages are mostly alike, and a probe costs about as much as
 * compressing its sample three times. Level 1 has no lower level worth trying (negative levels
 * leave literals uncompressed), so its pages are compressed once.
 */
public final class ZstdLevelChoice implements AutoCloseable {
  /** Pages from a column's first probe to its second, and after a probe that changed its level. */
  static final int PROBE_INTERVAL = 16;

  /** The most pages from one probe of a column to the next. */
  static final int LONGEST_PROBE_INTERVAL = 256;

  /**
   * The leading bytes of a page a probe compresses at every level: more than 256 KiB, so that zstd
   * sizes its tables for the sample as it does for a page of 1 MiB (parquet-java's page size).
   */
  static final int PROBE_SAMPLE_BYTES = 320 * 1024;

  /** The candidate levels' contexts, the table's level first, then lower ones, highest first. */
  private final ZstdCompressCtx[] contexts;

  /**
   * A lower level's frame counts as small as the smallest when within 1/{@value} of it: columns
   * that a higher level barely shrinks (small integers, ids in a narrow range) are compressed at
   * the faster level.
   */
  static final int NEAR_SMALLEST_DIVISOR = 64;

  /** A probe's frames at the lower levels (index 0, the table's level, goes to the target). */
  private final byte[][] frames;

  private final int[] frameLengths;

  public ZstdLevelChoice(int level) {
    int[] levels =
        IntStream.of(level, level - 1, 1)
            .filter(candidate -> candidate == level || (candidate >= 1 && candidate < level))
            .distinct()
            .toArray();
    contexts = new ZstdCompressCtx[levels.length];
    for (int index = 0; index < levels.length; index++) {
      contexts[index] = new ZstdCompressCtx();
      contexts[index].setLevel(levels[index]);
    }
    frames = new byte[levels.length][0];
    frameLengths = new int[levels.length];
  }

  /** The choice of a new column, which probes at its first page. */
  public Column newColumn() {
    return new Column();
  }

  /**
   * Compresses {@code source[offset, offset + length)} into one zstd frame at the start of {@code
   * target}, which holds at least {@link Zstd#compressBound} of {@code length} bytes, at the level
   * {@code column} chose; returns the frame's length.
   */
  public int compress(Column column, byte[] target, byte[] source, int offset, int length) {
    if (contexts.length == 1) {
      return contexts[0].compressByteArray(target, 0, target.length, source, offset, length);
    }
    if (column.pagesUntilProbe > 0) {
      column.pagesUntilProbe--;
      return contexts[column.winner].compressByteArray(
          target, 0, target.length, source, offset, length);
    }
    if (length <= PROBE_SAMPLE_BYTES) {
      int winner = probe(column, target, source, offset, length);
      if (winner > 0) {
        System.arraycopy(frames[winner], 0, target, 0, frameLengths[winner]);
      }
      return frameLengths[winner];
    }
    int winner = probe(column, target, source, offset, PROBE_SAMPLE_BYTES);
    return contexts[winner].compressByteArray(target, 0, target.length, source, offset, length);
  }

  /**
   * Compresses {@code source[offset, offset + length)} at every candidate level (the table's into
   * {@code target}, the others into {@link #frames}), sets {@code column}'s winner and next probe,
   * and returns the winner.
   */
  private int probe(Column column, byte[] target, byte[] source, int offset, int length) {
    frameLengths[0] =
        contexts[0].compressByteArray(target, 0, target.length, source, offset, length);
    int smallest = frameLengths[0];
    for (int index = 1; index < contexts.length; index++) {
      if (frames[index].length < target.length) {
        frames[index] = new byte[target.length];
      }
      frameLengths[index] =
          contexts[index].compressByteArray(
              frames[index], 0, frames[index].length, source, offset, length);
      smallest = Math.min(smallest, frameLengths[index]);
    }
    int winner = 0;
    for (int index = contexts.length - 1; index > 0; index--) {
      if (frameLengths[index] <= smallest + smallest / NEAR_SMALLEST_DIVISOR) {
        winner = index;
        break;
      }
    }
    column.probeInterval =
        column.probed && winner == column.winner
            ? Math.min(LONGEST_PROBE_INTERVAL, 2 * column.probeInterval)
            : PROBE_INTERVAL;
    column.probed = true;
    column.winner = winner;
    column.pagesUntilProbe = column.probeInterval - 1;
    return winner;
  }

  @Override
  public void close() {
    for (ZstdCompressCtx context : contexts) {
      context.close();
    }
  }

  /** The level one column's pages use until its next probe. */
  public static final class Column {
    private int winner;
    private int pagesUntilProbe;
    private int probeInterval = PROBE_INTERVAL;
    private boolean probed;

    private Column() {}

    /** Pages this column compresses at its level before it probes again. */
    int pagesUntilProbe() {
      return pagesUntilProbe;
    }
  }
}
