package dev.lakeops.rewrite.copy;

import java.io.IOException;
import java.util.Arrays;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/** Decompresses and compresses page bodies with one codec; results are owned byte arrays. */
interface PageCompression {
  CompressionCodecName codec();

  byte[] decompress(byte[] bytes, int offset, int length, int uncompressedLength)
      throws IOException;

  byte[] compress(byte[] uncompressed) throws IOException;

  /**
   * This compression for the pages of one column chunk: a codec that picks its level by what a
   * column's pages gain from it ({@link ZstdPageCompression}) keeps that choice per chunk.
   */
  default PageCompression forColumn() {
    return this;
  }

  /**
   * Decompresses a page body into {@code target}, which then holds its {@code uncompressedLength}
   * bytes from offset 0: callers decompressing page after page reuse one buffer.
   */
  default void decompressInto(
      byte[] bytes, int offset, int length, int uncompressedLength, PageBytes target)
      throws IOException {
    byte[] plain = decompress(bytes, offset, length, uncompressedLength);
    target.reset();
    target.write(plain, 0, plain.length);
  }

  /**
   * {@code bytes[offset, offset + length)} compressed, valid until the next call on this
   * compression: the caller writes it out at once.
   */
  default BytesInput compressed(byte[] bytes, int offset, int length) throws IOException {
    return BytesInput.from(compress(Arrays.copyOfRange(bytes, offset, offset + length)));
  }
}
