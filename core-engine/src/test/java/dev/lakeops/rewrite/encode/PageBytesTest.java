package dev.lakeops.rewrite.encode;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Random;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;

class PageBytesTest {
  @Test
  void lengthPrefixedValuesAreExactWhateverTheirLengthAndTheBytesReadable() {
    byte[] source = new byte[200];
    new Random(3).nextBytes(source);
    try (BufferAllocator allocator = new RootAllocator(1 << 20);
        ArrowBuf memory = allocator.buffer(source.length)) {
      memory.setBytes(0, source);
      PageBytes page = new PageBytes(16);
      ByteBuffer expected = ByteBuffer.allocate(64 * 1024).order(ByteOrder.LITTLE_ENDIAN);
      for (int length = 0; length <= 70; length++) {
        for (int start : new int[] {0, 7, source.length - length}) {
          // as many bytes readable as the buffer holds past the value's start, or the value's alone
          long readable = length % 2 == 0 ? source.length - start : length;
          page.putLengthPrefixed(memory.memoryAddress() + start, length, readable);
          expected.putInt(length).put(source, start, length);
        }
      }
      assertThat(page.size()).isEqualTo(expected.position());
      assertThat(Arrays.copyOf(page.array(), page.size()))
          .isEqualTo(Arrays.copyOf(expected.array(), expected.position()));
    }
  }
}
