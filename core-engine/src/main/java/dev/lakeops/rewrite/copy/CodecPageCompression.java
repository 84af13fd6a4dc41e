package dev.lakeops.rewrite.copy;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.util.Arrays;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/** Page compression through parquet-java's codec of a codec factory (every codec but zstd). */
final class CodecPageCompression implements PageCompression {
  private final CompressionCodecName codec;
  private final CompressionCodecFactory.BytesInputCompressor compressor;
  private final CompressionCodecFactory.BytesInputDecompressor decompressor;

  CodecPageCompression(CompressionCodecFactory factory, CompressionCodecName codec) {
    requireNonNull(factory, "factory is null");
    this.codec = requireNonNull(codec, "codec is null");
    this.compressor = factory.getCompressor(codec);
    this.decompressor = factory.getDecompressor(codec);
  }

  @Override
  public CompressionCodecName codec() {
    return codec;
  }

  @Override
  public byte[] decompress(byte[] bytes, int offset, int length, int uncompressedLength)
      throws IOException {
    if (codec == CompressionCodecName.UNCOMPRESSED) {
      return Arrays.copyOfRange(bytes, offset, offset + length);
    }
    return decompressor
        .decompress(BytesInput.from(bytes, offset, length), uncompressedLength)
        .toByteArray();
  }

  @Override
  public byte[] compress(byte[] uncompressed) throws IOException {
    if (codec == CompressionCodecName.UNCOMPRESSED) {
      return uncompressed;
    }
    return compressor.compress(BytesInput.from(uncompressed)).toByteArray();
  }
}
