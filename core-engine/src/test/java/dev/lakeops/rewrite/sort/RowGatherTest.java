package dev.lakeops.rewrite.sort;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;

class RowGatherTest {
  @Test
  void heldBytesAreWhatTheAllocatorAccountsToTheBatch() {
    try (BufferAllocator allocator = new RootAllocator();
        VarCharVector names = new VarCharVector("name", allocator);
        BigIntVector ids = new BigIntVector("id", allocator)) {
      // grown value by value, as a decoder grows them: buffers end up rounded to powers of two
      int rows = 3_000;
      for (int row = 0; row < rows; row++) {
        names.setSafe(row, ("name-" + "x".repeat(row % 50)).getBytes(StandardCharsets.UTF_8));
        ids.setSafe(row, row * 31L);
      }
      names.setValueCount(rows);
      ids.setValueCount(rows);
      try (VectorSchemaRoot batch = new VectorSchemaRoot(List.<FieldVector>of(names, ids))) {
        batch.setRowCount(rows);

        long held = RowGather.heldBytes(batch);

        assertThat(held).isEqualTo(allocator.getAllocatedMemory());
        assertThat(held).isGreaterThan(RowGather.bufferBytes(batch));
      }
    }
  }

  @Test
  void aClearedTargetHoldsOnlyTheRowsGatheredAfterwardsWithTheirNulls() {
    try (BufferAllocator allocator = new RootAllocator();
        VarCharVector names = new VarCharVector("name", allocator);
        BigIntVector ids = new BigIntVector("id", allocator);
        VarCharVector targetNames = new VarCharVector("name", allocator);
        BigIntVector targetIds = new BigIntVector("id", allocator)) {
      int rows = 100;
      for (int row = 0; row < rows; row++) {
        if (row % 3 == 0) {
          names.setNull(row);
          ids.setNull(row);
        } else {
          names.setSafe(row, ("value-" + row).getBytes(StandardCharsets.UTF_8));
          ids.setSafe(row, row * 7L);
        }
      }
      names.setValueCount(rows);
      ids.setValueCount(rows);
      try (VectorSchemaRoot source = new VectorSchemaRoot(List.<FieldVector>of(names, ids));
          VectorSchemaRoot target =
              new VectorSchemaRoot(List.<FieldVector>of(targetNames, targetIds))) {
        source.setRowCount(rows);
        SourceColumns columns = SourceColumns.of(source);
        RowGather gather = new RowGather(target, rows);
        for (int row = rows - 1; row >= 0; row--) {
          gather.add(columns, row);
        }
        gather.batch();
        gather.clear();

        // fewer rows the second time, nulls where the first gather held values
        for (int row = 1; row < 40; row += 2) {
          gather.add(columns, row);
        }
        VectorSchemaRoot batch = gather.batch();

        assertThat(batch.getRowCount()).isEqualTo(20);
        for (int index = 0; index < 20; index++) {
          int row = 1 + 2 * index;
          if (row % 3 == 0) {
            assertThat(targetNames.isNull(index)).as("row %d", row).isTrue();
            assertThat(targetIds.isNull(index)).as("row %d", row).isTrue();
          } else {
            assertThat(new String(targetNames.get(index), StandardCharsets.UTF_8))
                .isEqualTo("value-" + row);
            assertThat(targetIds.get(index)).isEqualTo(row * 7L);
          }
        }
        assertThat(targetNames.getNullCount()).isEqualTo(7);
      }
    }
  }
}
