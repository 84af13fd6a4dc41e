package dev.lakeops.rewrite.sort;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Comparator;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class RadixSortTest {
  private static final int LOW_BITS = 13;
  private static final long LOW_MASK = (1L << LOW_BITS) - 1;

  @Test
  void sortsByTheHighBitsUnsignedAndKeepsTheOrderOfTies() {
    Random random = new Random(11);
    RadixSort sorter = new RadixSort();
    for (int trial = 0; trial < 300; trial++) {
      int length = random.nextInt(3000);
      // few distinct high parts (many ties), some with the top bit set (negative as signed)
      long[] highs = random.longs(1 + random.nextInt(50)).toArray();
      long[] values = new long[length];
      for (int index = 0; index < length; index++) {
        long high = highs[random.nextInt(highs.length)] & ~LOW_MASK;
        values[index] = high | (index & LOW_MASK);
      }
      Long[] expected = Arrays.stream(values).boxed().toArray(Long[]::new);
      Arrays.sort(
          expected, Comparator.comparing((Long value) -> value & ~LOW_MASK, Long::compareUnsigned));
      sorter.sortByHighBits(values, length, LOW_BITS);
      assertThat(values)
          .containsExactly(
              IntStream.range(0, length).mapToLong(index -> expected[index]).toArray());
    }
  }
}
