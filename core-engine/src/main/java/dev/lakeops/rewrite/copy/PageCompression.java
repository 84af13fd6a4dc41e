package dev.lakeops.rewrite.copy;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/** Decompresses and compresses page bodies with one codec; results are owned byte arrays. */
final class PageCompression {
  private final CompressionCodecName codec;
  private final CompressionCodecFactory.BytesInputCompressor compressor;
  private final CompressionCodecFactory.BytesInputDecompressor decompressor;

  PageCompression(CompressionCodecFactory factory, CompressionCodecName codec) {
    requireNonNull(factory, "factory is null");
    this.codec = requireNonNull(codec, "codec is null");
    this.compressor = factory.getCompressor(codec);
    this.decompressor = factory.getDecompressor(codec);
  }

  CompressionCodecName codec() {
    return codec;
  }

  byte[] decompress(byte[] bytes, int offset, int length, int uncompressedLength)
      throws IOException {
    if (codec == CompressionCodecName.UNCOMPRESSED) {
      byte[] copy = new byte[length];
      System.arraycopy(bytes, offset, copy, 0, length);
      return copy;
    }
    return decompressor
        .decompress(BytesInput.from(bytes, offset, length), uncompressedLength)
        .toByteArray();
  }

  byte[] compress(byte[] uncompressed) throws IOException {
    if (codec == CompressionCodecName.UNCOMPRESSED) {
      return uncompressed;
    }
    return compressor.compress(BytesInput.from(uncompressed)).toByteArray();
  }
}
