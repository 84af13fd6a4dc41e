package dev.lakeops.rewrite.sort;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VarBinaryVector;
import org.junit.jupiter.api.Test;

/** Keys written by address come back as written, also when they outgrow the allocation guess. */
class KeyColumnWriterTest {
  @Test
  void holdsEveryKeyAsWrittenAndGrowsPastItsGuess() {
    Random random = new Random(5);
    List<byte[]> written = new ArrayList<>();
    try (BufferAllocator allocator = new RootAllocator();
        VarBinaryVector keys = new VarBinaryVector("keys", allocator)) {
      for (int round = 0; round < 2; round++) {
        int rows = 1 + random.nextInt(3000);
        KeyColumnWriter writer = new KeyColumnWriter(keys, rows, 1);
        KeyBytes key = new KeyBytes();
        written.clear();
        for (int row = 0; row < rows; row++) {
          key.reset();
          byte[] value = new byte[random.nextInt(200)];
          random.nextBytes(value);
          key.put(value, 0, value.length);
          writer.put(key);
          written.add(value);
        }
        int bytes = writer.finish();

        assertThat(bytes).isEqualTo(written.stream().mapToInt(value -> value.length).sum());
        assertThat(keys.getValueCount()).isEqualTo(rows);
        assertThat(keys.getNullCount()).isZero();
        for (int row = 0; row < rows; row++) {
          assertThat(keys.get(row)).as("key %d", row).isEqualTo(written.get(row));
        }
      }
    }
  }
}
