package dev.lakeops.rewrite.copy;

import static java.util.Objects.requireNonNull;

import java.util.EnumMap;
import java.util.Map;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * One {@link PageCompression} per codec met in a merge, created on first use: zstd in one call per
 * page ({@link ZstdPageCompression}), other codecs through parquet-java's codec factory. Closing
 * releases the zstd contexts.
 */
final class PageCompressions implements AutoCloseable {
  private final CompressionCodecFactory factory;
  private final int zstdLevel;
  private final Map<CompressionCodecName, PageCompression> byCodec =
      new EnumMap<>(CompressionCodecName.class);

  PageCompressions(CompressionCodecFactory factory, int zstdLevel) {
    this.factory = requireNonNull(factory, "factory is null");
    this.zstdLevel = zstdLevel;
  }

  PageCompression of(CompressionCodecName codec) {
    return byCodec.computeIfAbsent(
        requireNonNull(codec, "codec is null"),
        name ->
            name == CompressionCodecName.ZSTD
                ? new ZstdPageCompression(zstdLevel)
                : new CodecPageCompression(factory, name));
  }

  @Override
  public void close() {
    for (PageCompression compression : byCodec.values()) {
      if (compression instanceof ZstdPageCompression zstd) {
        zstd.close();
      }
    }
  }
}
