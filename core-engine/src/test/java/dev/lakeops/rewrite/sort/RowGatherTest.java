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
}
