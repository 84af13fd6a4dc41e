package dev.lakeops.rewrite.read;

import static java.util.Objects.requireNonNull;

import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * The codecs one Parquet file is read with: zstd pages through {@link ZstdPageDecompressor}, every
 * other codec through parquet-java's. One instance per file reader (not thread-safe).
 */
final class PageCodecs implements CompressionCodecFactory {
  private final CompressionCodecFactory parquetCodecs;
  private ZstdPageDecompressor zstd;

  PageCodecs(CompressionCodecFactory parquetCodecs) {
    this.parquetCodecs = requireNonNull(parquetCodecs, "parquetCodecs is null");
  }

  @Override
  public BytesInputCompressor getCompressor(CompressionCodecName codec) {
    return parquetCodecs.getCompressor(codec);
  }

  @Override
  public BytesInputDecompressor getDecompressor(CompressionCodecName codec) {
    if (codec != CompressionCodecName.ZSTD) {
      return parquetCodecs.getDecompressor(codec);
    }
    if (zstd == null) {
      zstd = new ZstdPageDecompressor();
    }
    return zstd;
  }

  /**
   * Decompresses the zstd pages read next into {@code buffers}' page array ({@code null}: into new
   * arrays), for a decoder that consumes each page before it reads the next.
   */
  void decompressInto(PageDecodeBuffers buffers) {
    if (zstd != null) {
      zstd.decompressInto(buffers);
    }
  }

  @Override
  public void release() {
    try {
      if (zstd != null) {
        zstd.release();
        zstd = null;
      }
    } finally {
      parquetCodecs.release();
    }
  }
}
