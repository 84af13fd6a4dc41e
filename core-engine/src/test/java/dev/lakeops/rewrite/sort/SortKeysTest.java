package dev.lakeops.rewrite.sort;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VarBinaryVector;
import org.junit.jupiter.api.Test;

class SortKeysTest {
  @Test
  void prefixComparisonAgreesWithComparingTheWholeKeys() {
    Random random = new Random(13);
    int count = 4_000;
    byte[][] keys = new byte[count][];
    for (int index = 0; index < count; index++) {
      byte[] key = new byte[random.nextInt(25)];
      for (int position = 0; position < key.length; position++) {
        key[position] = (byte) (random.nextInt(4) == 0 ? 0 : random.nextInt(3));
      }
      keys[index] = key;
    }
    try (RootAllocator allocator = new RootAllocator(16L << 20);
        VarBinaryVector vector = new VarBinaryVector("keys", allocator)) {
      long[] fromBytes = new long[count * SortKeys.PREFIX_SLOTS];
      long[] fromVector = new long[count * SortKeys.PREFIX_SLOTS];
      KeyBytes buffer = new KeyBytes();
      for (int index = 0; index < count; index++) {
        vector.setSafe(index, keys[index]);
        buffer.reset();
        buffer.put(keys[index], 0, keys[index].length);
        SortKeys.prefix(buffer, fromBytes, index * SortKeys.PREFIX_SLOTS);
      }
      vector.setValueCount(count);
      for (int index = 0; index < count; index++) {
        SortKeys.prefix(vector, index, fromVector, index * SortKeys.PREFIX_SLOTS);
      }
      assertThat(fromVector).isEqualTo(fromBytes);

      for (int left = 0; left < count; left += 7) {
        for (int right = 0; right < count; right += 3) {
          int expected = Integer.signum(Arrays.compareUnsigned(keys[left], keys[right]));
          int byPrefix =
              SortKeys.comparePrefixes(
                  fromBytes,
                  left * SortKeys.PREFIX_SLOTS,
                  fromBytes,
                  right * SortKeys.PREFIX_SLOTS);
          int actual =
              byPrefix != SortKeys.UNDECIDED
                  ? byPrefix
                  : SortKeys.compare(vector, left, vector, right);
          assertThat(Integer.signum(actual))
              .as("%s vs %s", Arrays.toString(keys[left]), Arrays.toString(keys[right]))
              .isEqualTo(expected);
        }
      }
    }
  }
}
