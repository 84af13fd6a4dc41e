package dev.lakeops.rewrite.read;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.luben.zstd.Zstd;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.parquet.bytes.BytesInput;
import org.junit.jupiter.api.Test;

/** Pages decompress into their column's reused array while a decoder names it, else anew. */
class ZstdPageDecompressorTest {
  private final ZstdPageDecompressor decompressor = new ZstdPageDecompressor();

  @Test
  void pagesOfAColumnShareItsArrayAndEachHoldsExactlyItsOwnBytes() throws IOException {
    byte[] large = page("a larger page of repeated words ", 2_000);
    byte[] small = page("a small one ", 100);
    PageDecodeBuffers buffers = new PageDecodeBuffers();

    decompressor.decompressInto(buffers);
    ByteBuffer first = decompressed(large);
    byte[] firstArray = first.array();
    ByteBuffer second = decompressed(small);
    decompressor.decompressInto(null);
    ByteBuffer unnamed = decompressed(small);

    assertThat(second.array()).isSameAs(firstArray);
    assertThat(second.remaining()).isEqualTo(small.length);
    assertThat(Arrays.copyOf(second.array(), second.remaining())).isEqualTo(small);
    assertThat(unnamed.array()).isNotSameAs(firstArray).hasSize(small.length).isEqualTo(small);
    decompressor.release();
  }

  private ByteBuffer decompressed(byte[] page) throws IOException {
    byte[] compressed = Zstd.compress(page, 3);
    return decompressor.decompress(BytesInput.from(compressed), page.length).toByteBuffer();
  }

  private static byte[] page(String words, int times) {
    return words.repeat(times).getBytes(StandardCharsets.UTF_8);
  }
}
