package dev.lakeops.rewrite.read;

import com.github.luben.zstd.ZstdDecompressCtx;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputDecompressor;

/**
 * Decompresses zstd Parquet pages in one call per page, through one decompression context reused
 * for every page of a file. parquet-java's codec opens a zstd stream per page and copies through
 * its buffers. A page goes into the array of its column's {@link PageDecodeBuffers} while a decoder
 * names them ({@link #decompressInto}: it reads one page, consumed before the next), else into a
 * new array of the page's uncompressed size (which the page header gives).
 */
final class ZstdPageDecompressor implements BytesInputDecompressor {
  private final ZstdDecompressCtx context = new ZstdDecompressCtx();
  private PageDecodeBuffers target;

  /** Decompresses the next pages into {@code buffers}' page array; {@code null}: new arrays. */
  void decompressInto(PageDecodeBuffers buffers) {
    this.target = buffers;
  }

  @Override
  public BytesInput decompress(BytesInput bytes, int uncompressedSize) throws IOException {
    ByteBuffer input = bytes.toByteBuffer();
    byte[] output =
        target == null ? new byte[uncompressedSize] : target.pageBytes(uncompressedSize);
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
    return BytesInput.from(output, 0, uncompressedSize);
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
