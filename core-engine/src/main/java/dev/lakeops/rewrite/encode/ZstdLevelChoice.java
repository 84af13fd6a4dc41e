package dev.lakeops.rewrite.encode;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import java.util.stream.IntStream;

/**
 * Compresses the pages of a file's columns with zstd at the table's level, or at a lower level, 2
 * or 1 (the level below the table's, and level 1), for a column whose pages that level compresses
 * no larger. At level 3, parquet-java's default, zstd's match finder looks for 5-byte matches; in
 * pages of hex or base64 ids, random numbers and the like it finds many short chance matches that
 * cost time and code no smaller than literals do: on such columns level 2 (6-byte matches) wrote
 * frames as small or smaller, 1.4 to 7 times faster, and on some (ids of a few million, prefixed
 * hex) level 1 smaller still, about twice as fast as level 3. Other columns gain from level 3 and
 * keep it.
 *
 * <p>Each column decides for itself ({@link Column}): its first page, and every {@value
 * #PROBE_INTERVAL}th page after it, is compressed at every candidate level and the smallest frame
 * kept (the lowest level among equals); the pages between use the level that won the last probe.
 * Level 1 has no lower level worth trying (negative levels leave literals uncompressed), so its
 * pages are compressed once.
 */
public final class ZstdLevelChoice implements AutoCloseable {
  /** Pages from one probe of a column to the next. */
  static final int PROBE_INTERVAL = 16;

  /** The candidate levels' contexts, the table's level first, then lower ones, highest first. */
  private final ZstdCompressCtx[] contexts;

  private byte[] probe = new byte[0];
  private byte[] smallest = new byte[0];

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
    int best = contexts[0].compressByteArray(target, 0, target.length, source, offset, length);
    int winner = 0;
    if (probe.length < target.length) {
      probe = new byte[target.length];
      smallest = new byte[target.length];
    }
    for (int index = 1; index < contexts.length; index++) {
      int frame = contexts[index].compressByteArray(probe, 0, probe.length, source, offset, length);
      if (frame <= best) {
        best = frame;
        winner = index;
        byte[] kept = smallest;
        smallest = probe;
        probe = kept;
      }
    }
    column.winner = winner;
    column.pagesUntilProbe = PROBE_INTERVAL - 1;
    if (winner > 0) {
      System.arraycopy(smallest, 0, target, 0, best);
    }
    return best;
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

    private Column() {}
  }
}
