package dev.lakeops.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The checksum sees every value and null of every row, and nothing of their order. */
class BatchChecksumTest {
  private final BufferAllocator allocator = new RootAllocator();
  private final BatchChecksum checksum = new BatchChecksum();

  @AfterEach
  void closeAllocator() {
    allocator.close();
  }

  @Test
  void rowsInAnotherOrderOrCutIntoOtherBatchesSumToTheSameChecksum() {
    long whole = checksumOf(new long[] {1, 2, 3, 4}, new String[] {"a", null, "c", ""});
    long reordered = checksumOf(new long[] {4, 3, 2, 1}, new String[] {"", "c", null, "a"});
    long split =
        checksumOf(new long[] {3, 1}, new String[] {"c", "a"})
            + checksumOf(new long[] {2, 4}, new String[] {null, ""});

    assertThat(reordered).isEqualTo(whole);
    assertThat(split).isEqualTo(whole);
  }

  @Test
  void aChangedValueALostNullOrAMovedValueChangesTheChecksum() {
    long original = checksumOf(new long[] {1, 2}, new String[] {"a", null});

    assertThat(checksumOf(new long[] {1, 3}, new String[] {"a", null})).isNotEqualTo(original);
    assertThat(checksumOf(new long[] {1, 2}, new String[] {"a", ""})).isNotEqualTo(original);
    // the same values, one of them in another row
    assertThat(checksumOf(new long[] {1, 2}, new String[] {null, "a"})).isNotEqualTo(original);
    assertThat(checksumOf(new long[] {1}, new String[] {"a"})).isNotEqualTo(original);
  }

  @Test
  void aChangeInAnyOneCharacterOfAStringChangesTheChecksum() {
    String alphabet = "0123456789abcdef";
    for (int length = 1; length <= 40; length++) {
      StringBuilder text = new StringBuilder();
      for (int index = 0; index < length; index++) {
        text.append(alphabet.charAt((index * 7 + length) % alphabet.length()));
      }
      long original = checksumOf(new long[] {1}, new String[] {text.toString()});
      for (int index = 0; index < length; index++) {
        StringBuilder changed = new StringBuilder(text);
        changed.setCharAt(index, text.charAt(index) == 'x' ? 'y' : 'x');
        assertThat(checksumOf(new long[] {1}, new String[] {changed.toString()}))
            .as("length %d, character %d", length, index)
            .isNotEqualTo(original);
      }
    }
  }

  private long checksumOf(long[] ids, String[] names) {
    BigIntVector id = new BigIntVector("id", allocator);
    VarCharVector name = new VarCharVector("name", allocator);
    try (VectorSchemaRoot batch = new VectorSchemaRoot(List.of(id, name))) {
      id.allocateNew(ids.length);
      name.allocateNew(ids.length);
      for (int row = 0; row < ids.length; row++) {
        id.set(row, ids[row]);
        if (names[row] == null) {
          name.setNull(row);
        } else {
          name.setSafe(row, names[row].getBytes(StandardCharsets.UTF_8));
        }
      }
      batch.setRowCount(ids.length);
      return checksum.of(batch, 2);
    }
  }
}
