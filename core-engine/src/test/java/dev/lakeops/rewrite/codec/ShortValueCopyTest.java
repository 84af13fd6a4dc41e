package dev.lakeops.rewrite.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;

class ShortValueCopyTest {
  @Test
  void copiesEveryLengthFromEveryStartExactlyWritingPastTheValueOnlyWithinTheRoom() {
    byte[] source = new byte[100];
    new Random(7).nextBytes(source);
    try (BufferAllocator allocator = new RootAllocator(1 << 20);
        ArrowBuf target = allocator.buffer(256)) {
      for (int start = 0; start <= source.length; start++) {
        for (int length = 0; start + length <= source.length && length <= 70; length++) {
          target.setZero(0, target.capacity());
          long room = start % 2 == 0 ? target.capacity() - 8 : length;
          ShortValueCopy.copyToMemory(source, start, target.memoryAddress() + 8, length, room);
          byte[] copied = new byte[length];
          target.getBytes(8, copied);
          for (int index = 0; index < length; index++) {
            assertThat(copied[index])
                .as("byte %d of %d from %d", index, length, start)
                .isEqualTo(source[start + index]);
          }
          assertThat(target.getLong(0)).as("nothing written before the target").isZero();
          if (length > ShortValueCopy.WORD_COPY_BYTES
              || start + ShortValueCopy.WORD_COPY_BYTES > source.length
              || room < ShortValueCopy.WORD_COPY_BYTES) {
            assertThat(target.getByte(8 + length)).as("bulk copy writes the value alone").isZero();
          }
        }
      }
    }
  }
}
