package dev.lakeops.rewrite.copy;

import static java.util.Objects.requireNonNull;

import java.util.EnumMap;
import java.util.Map;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/** One {@link PageCompression} per codec met in a merge, created on first use. */
final class PageCompressions {
  private final CompressionCodecFactory factory;
  private final Map<CompressionCodecName, PageCompression> byCodec =
      new EnumMap<>(CompressionCodecName.class);

  PageCompressions(CompressionCodecFactory factory) {
    this.factory = requireNonNull(factory, "factory is null");
  }

  PageCompression of(CompressionCodecName codec) {
    return byCodec.computeIfAbsent(
        requireNonNull(codec, "codec is null"), name -> new PageCompression(factory, name));
  }
}
