package dev.lakeops.rewrite.encode;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;

/**
 * Compresses the pages of a file's columns with zstd at the table's level, or at the level below it
 * for a column whose pages that level compresses no larger. At level 3, parquet-java's default,
 * zstd's match finder looks for 5-byte matches; in pages of hex or base64 ids, random numbers and
 * the like it finds many short chance matches that cost time and code no smaller than literals do:
 * on such columns level 2 (6-byte matches) wrote frames as small or smaller, 1.4 to 7 times faster.
 * Other columns gain from level 3 and keep it.
 *
 * <p>Each column decides for itself ({@link Column}): its first page, and every {@value
 * #PROBE_INTERVAL}th page after it, is compressed at both levels and the smaller frame kept; the
 * pages between use the level that won the last probe. Levels 1 and below have no level below worth
 * trying (negative levels leave literals uncompressed), so their pages are compressed once.
 */
public final class ZstdLevelChoice implements AutoCloseable {
  /** Pages from one probe of a column to the next. */
  static final int PROBE_INTERVAL = 16;

  private final ZstdCompressCtx requested = new ZstdCompressCtx();
  private final ZstdCompressCtx lower;
  private byte[] probe = new byte[0];

  public ZstdLevelChoice(int level) {
    requested.setLevel(level);
    if (level > 1) {
      lower = new ZstdCompressCtx();
      lower.setLevel(level - 1);
    } else {
      lower = null;
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
    if (lower == null) {
      return requested.compressByteArray(target, 0, target.length, source, offset, length);
    }
    if (column.pagesUntilProbe > 0) {
      column.pagesUntilProbe--;
      ZstdCompressCtx context = column.lowerWins ? lower : requested;
      return context.compressByteArray(target, 0, target.length, source, offset, length);
    }
    int atLevel = requested.compressByteArray(target, 0, target.length, source, offset, length);
    if (probe.length < target.length) {
      probe = new byte[target.length];
    }
    int atLower = lower.compressByteArray(probe, 0, probe.length, source, offset, length);
    column.lowerWins = atLower <= atLevel;
    column.pagesUntilProbe = PROBE_INTERVAL - 1;
    if (column.lowerWins) {
      System.arraycopy(probe, 0, target, 0, atLower);
      return atLower;
    }
    return atLevel;
  }

  @Override
  public void close() {
    try (ZstdCompressCtx closingRequested = requested;
        ZstdCompressCtx closingLower = lower) {
      // closed by the resources
    }
  }

  /** The level one column's pages use until its next probe. */
  public static final class Column {
    private boolean lowerWins;
    private int pagesUntilProbe;

    private Column() {}
  }
}
