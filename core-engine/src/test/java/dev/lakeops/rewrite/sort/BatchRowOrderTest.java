package dev.lakeops.rewrite.sort;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VarBinaryVector;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The packed primitive sort gives exactly the stable order of a full-key comparison sort. */
class BatchRowOrderTest {
  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 6, 12})
  void ordersLikeAStableSortByFullKey(int leadingBytesVariety) {
    Random random = new Random(leadingBytesVariety);
    int rows = ExternalSorter.BATCH_ROWS;
    try (BufferAllocator allocator = new RootAllocator();
        VarBinaryVector keys = new VarBinaryVector("keys", allocator)) {
      keys.allocateNew();
      long[] prefixes = new long[rows * SortKeys.PREFIX_SLOTS];
      for (int row = 0; row < rows; row++) {
        // few distinct leading bytes, then tails of varied length: many ties in the first word
        byte[] key = new byte[4 + random.nextInt(20)];
        for (int index = 0; index < key.length; index++) {
          key[index] =
              (byte) (index < 7 ? random.nextInt(leadingBytesVariety) * 97 : random.nextInt(3));
        }
        keys.setSafe(row, key);
      }
      keys.setValueCount(rows);
      for (int row = 0; row < rows; row++) {
        SortKeys.prefix(keys, row, prefixes, row * SortKeys.PREFIX_SLOTS);
      }
      int[] expected = new int[rows];
      for (int row = 0; row < rows; row++) {
        expected[row] = row;
      }
      IndexSorter.sort(expected, rows, (left, right) -> SortKeys.compare(keys, left, keys, right));

      BatchRowOrder order = new BatchRowOrder();
      assertThat(Arrays.copyOf(order.order(prefixes, keys, rows), rows)).containsExactly(expected);
      // the same object orders a shorter batch next, its arrays reused: the first rows alone
      int shorter = rows / 3;
      int[] expectedShorter = new int[shorter];
      for (int row = 0; row < shorter; row++) {
        expectedShorter[row] = row;
      }
      IndexSorter.sort(
          expectedShorter, shorter, (left, right) -> SortKeys.compare(keys, left, keys, right));
      assertThat(Arrays.copyOf(order.order(prefixes, keys, shorter), shorter))
          .containsExactly(expectedShorter);
    }
  }
}
