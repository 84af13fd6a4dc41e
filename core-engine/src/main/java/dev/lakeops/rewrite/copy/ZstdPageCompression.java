package dev.lakeops.rewrite.copy;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdDecompressCtx;
import dev.lakeops.rewrite.encode.ZstdLevelChoice;
import java.io.IOException;
import java.util.Arrays;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * Zstd page compression in one call per page, through a compression and a decompression context
 * reused for every page of a merge. parquet-java's codec opens a zstd stream per page, sized for
 * input of unknown length, and copies through its buffers; the rewritten pages of a merge are many
 * and small, so that set-up was a large part of their cost. The frames are ordinary zstd frames.
 * Pages are compressed at the given level or a lower one ({@link ZstdLevelChoice}), chosen per
 * column chunk by {@link #forColumn}'s views, which share this compression's contexts.
 */
final class ZstdPageCompression implements PageCompression, AutoCloseable {
  /** parquet-java's default level ({@code parquet.compression.codec.zstd.level}). */
  static final int DEFAULT_LEVEL = 3;

  private final ZstdLevelChoice levels;
  private final ZstdLevelChoice.Column unnamedColumn;
  private final ZstdDecompressCtx decompressContext = new ZstdDecompressCtx();
  private byte[] scratch = new byte[0];

  ZstdPageCompression(int level) {
    this.levels = new ZstdLevelChoice(level);
    this.unnamedColumn = levels.newColumn();
  }

  @Override
  public PageCompression forColumn() {
    return new ColumnPages(levels.newColumn());
  }

  @Override
  public CompressionCodecName codec() {
    return CompressionCodecName.ZSTD;
  }

  @Override
  public byte[] decompress(byte[] bytes, int offset, int length, int uncompressedLength)
      throws IOException {
    byte[] output = new byte[uncompressedLength];
    decompressTo(output, 0, bytes, offset, length, uncompressedLength);
    return output;
  }

  @Override
  public void decompressInto(
      byte[] bytes, int offset, int length, int uncompressedLength, PageBytes target)
      throws IOException {
    target.reset();
    int start = target.append(uncompressedLength);
    decompressTo(target.array(), start, bytes, offset, length, uncompressedLength);
  }

  /** Decompresses one page into {@code output} at {@code start}, checking its length. */
  private void decompressTo(
      byte[] output, int start, byte[] bytes, int offset, int length, int uncompressedLength)
      throws IOException {
    int written;
    try {
      written =
          decompressContext.decompressByteArray(
              output, start, uncompressedLength, bytes, offset, length);
    } catch (RuntimeException e) {
      throw new IOException("Cannot decompress a zstd page: " + e.getMessage(), e);
    }
    if (written != uncompressedLength) {
      throw new IOException(
          "A zstd page decompressed to "
              + written
              + " bytes where its header says "
              + uncompressedLength);
    }
  }

  @Override
  public BytesInput compressed(byte[] bytes, int offset, int length) throws IOException {
    return compressed(unnamedColumn, bytes, offset, length);
  }

  @Override
  public byte[] compress(byte[] uncompressed) throws IOException {
    return compress(unnamedColumn, uncompressed);
  }

  private BytesInput compressed(ZstdLevelChoice.Column column, byte[] bytes, int offset, int length)
      throws IOException {
    int written = compressIntoScratch(column, bytes, offset, length);
    return BytesInput.from(scratch, 0, written);
  }

  private byte[] compress(ZstdLevelChoice.Column column, byte[] uncompressed) throws IOException {
    int written = compressIntoScratch(column, uncompressed, 0, uncompressed.length);
    return Arrays.copyOf(scratch, written);
  }

  private int compressIntoScratch(
      ZstdLevelChoice.Column column, byte[] bytes, int offset, int length) throws IOException {
    int bound = (int) Zstd.compressBound(length);
    if (scratch.length < bound) {
      scratch = new byte[Math.max(bound, 2 * scratch.length)];
    }
    try {
      return levels.compress(column, scratch, bytes, offset, length);
    } catch (RuntimeException e) {
      throw new IOException("Cannot compress a page with zstd: " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    try (ZstdLevelChoice closingLevels = levels;
        ZstdDecompressCtx closingDecompress = decompressContext) {
      // closed by the resources
    }
  }

  /** The pages of one column chunk: this compression at that chunk's own level choice. */
  private final class ColumnPages implements PageCompression {
    private final ZstdLevelChoice.Column column;

    private ColumnPages(ZstdLevelChoice.Column column) {
      this.column = column;
    }

    @Override
    public CompressionCodecName codec() {
      return ZstdPageCompression.this.codec();
    }

    @Override
    public byte[] decompress(byte[] bytes, int offset, int length, int uncompressedLength)
        throws IOException {
      return ZstdPageCompression.this.decompress(bytes, offset, length, uncompressedLength);
    }

    @Override
    public void decompressInto(
        byte[] bytes, int offset, int length, int uncompressedLength, PageBytes target)
        throws IOException {
      ZstdPageCompression.this.decompressInto(bytes, offset, length, uncompressedLength, target);
    }

    @Override
    public byte[] compress(byte[] uncompressed) throws IOException {
      return ZstdPageCompression.this.compress(column, uncompressed);
    }

    @Override
    public BytesInput compressed(byte[] bytes, int offset, int length) throws IOException {
      return ZstdPageCompression.this.compressed(column, bytes, offset, length);
    }

    @Override
    public PageCompression forColumn() {
      return ZstdPageCompression.this.forColumn();
    }
  }
}
