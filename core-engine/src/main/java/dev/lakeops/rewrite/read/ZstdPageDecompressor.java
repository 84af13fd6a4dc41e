package dev.lakeops.rewrite.read;

import com.github.luben.zstd.ZstdDecompressCtx;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputDecompressor;

/**
 * Decompresses zstd Parquet pages in one call per page, into an array of the page's uncompressed
 * size (which the page header gives), through one decompression context reused for every page of a
 * file. parquet-java's codec opens a zstd stream per page and copies through its buffers.
 */
final class ZstdPageDecompressor implements BytesInputDecompressor {
  private final ZstdDecompressCtx context = new ZstdDecompressCtx();

  @Override
  public BytesInput decompress(BytesInput bytes, int uncompressedSize) throws IOException {
    ByteBuffer input = bytes.toByteBuffer();
    byte[] output = new byte[uncompressedSize];
    int written;
    if (input.hasArray()) {
      written =
          context.decompressByteArray(
              output,
              0,
              uncompressedSize,
              input.array(),
              input.arrayOffset() + input.position(),
              input.remaining());
    } else {
      byte[] compressed = bytes.toByteArray();
      written =
          context.decompressByteArray(
              output, 0, uncompressedSize, compressed, 0, compressed.length);
    }
    checkSize(written, uncompressedSize);
    return BytesInput.from(output);
  }

  @Override
  public void decompress(
      ByteBuffer input, int compressedSize, ByteBuffer output, int uncompressedSize)
      throws IOException {
    int written;
    if (input.isDirect() && output.isDirect()) {
      written =
          context.decompressDirectByteBuffer(
              output, output.position(), uncompressedSize, input, input.position(), compressedSize);
    } else {
      byte[] compressed = new byte[compressedSize];
      input.duplicate().get(compressed);
      byte[] decompressed = new byte[uncompressedSize];
      written =
          context.decompressByteArray(
              decompressed, 0, uncompressedSize, compressed, 0, compressedSize);
      output.duplicate().put(decompressed, 0, written);
    }
    checkSize(written, uncompressedSize);
    output.position(output.position() + written);
  }

  @Override
  public void release() {
    context.close();
  }

  private static void checkSize(int written, int uncompressedSize) throws IOException {
    if (written != uncompressedSize) {
      throw new IOException(
          "A zstd page decompressed to "
              + written
              + " bytes where its header says "
              + uncompressedSize);
    }
  }
}
