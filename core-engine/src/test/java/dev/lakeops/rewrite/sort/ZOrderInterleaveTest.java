package dev.lakeops.rewrite.sort;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

class ZOrderInterleaveTest {
  @Test
  void bytewiseInterleavingGivesTheSameBitsAsTheBitByBitLoop() {
    Random random = new Random(11);
    for (int columns = 1; columns <= 8; columns++) {
      long[] spread = ZOrderKeyEncoder.spreadTable(columns);
      for (int sample = 0; sample < 2_000; sample++) {
        long[] values = new long[columns];
        for (int index = 0; index < columns; index++) {
          values[index] =
              switch (sample % 4) {
                case 0 -> random.nextLong();
                case 1 -> -1L;
                case 2 -> 1L << random.nextInt(64);
                default -> random.nextInt(256);
              };
        }
        KeyBytes bitwise = new KeyBytes();
        KeyBytes bytewise = new KeyBytes();
        ZOrderKeyEncoder.interleaveBitwise(values, bitwise);
        ZOrderKeyEncoder.interleaveBytewise(values, spread, bytewise);

        assertThat(bytewise.copy())
            .as("%d columns", columns)
            .hasSize(8 * columns)
            .isEqualTo(bitwise.copy());
      }
    }
  }

  @Test
  void pairInterleavingGivesTheSameBitsAsTheBitByBitLoop() {
    Random random = new Random(13);
    for (int sample = 0; sample < 20_000; sample++) {
      long first = sample % 3 == 0 ? 1L << random.nextInt(64) : random.nextLong();
      long second = sample % 5 == 0 ? -1L : random.nextLong();
      KeyBytes bitwise = new KeyBytes();
      KeyBytes pair = new KeyBytes();
      ZOrderKeyEncoder.interleaveBitwise(new long[] {first, second}, bitwise);
      ZOrderKeyEncoder.interleavePair(first, second, pair);

      assertThat(pair.copy()).as("%x, %x", first, second).hasSize(16).isEqualTo(bitwise.copy());
    }
  }

  @Test
  void batchEncodingGivesTheSameKeysAsRowByRowEncoding() {
    Schema schema =
        new Schema(
            Types.NestedField.optional(1, "id", Types.LongType.get()),
            Types.NestedField.optional(2, "ts", Types.TimestampType.withZone()),
            Types.NestedField.optional(3, "count", Types.IntegerType.get()),
            Types.NestedField.optional(4, "day", Types.DateType.get()),
            Types.NestedField.optional(5, "name", Types.StringType.get()));
    Random random = new Random(5);
    int rows = 3000;
    try (BufferAllocator allocator = new RootAllocator();
        BigIntVector id = new BigIntVector("id", allocator);
        TimeStampMicroTZVector ts = new TimeStampMicroTZVector("ts", allocator, "UTC");
        IntVector count = new IntVector("count", allocator);
        DateDayVector day = new DateDayVector("day", allocator);
        VarCharVector name = new VarCharVector("name", allocator)) {
      for (int row = 0; row < rows; row++) {
        if (row % 7 == 3) {
          id.setNull(row);
        } else {
          id.setSafe(row, random.nextLong());
        }
        ts.setSafe(row, 1_796_000_000_000_000L + random.nextInt());
        if (row % 5 == 1) {
          count.setNull(row);
        } else {
          count.setSafe(row, random.nextInt());
        }
        day.setSafe(row, random.nextInt(40_000) - 20_000);
        if (row % 11 == 0) {
          name.setNull(row);
        } else {
          name.setSafe(row, ("n" + random.nextInt(1000)).getBytes(StandardCharsets.UTF_8));
        }
      }
      for (FieldVector vector : List.<FieldVector>of(id, ts, count, day, name)) {
        vector.setValueCount(rows);
      }
      VectorSchemaRoot batch = new VectorSchemaRoot(List.<FieldVector>of(id, ts, count, day, name));
      for (List<Integer> fieldIds :
          List.of(List.of(1, 2), List.of(3, 4, 5), List.of(1, 2, 3, 4, 5, 1, 2, 3, 4))) {
        ZOrderKeyEncoder encoder = ZOrderKeyEncoder.withoutRescaling(schema, fieldIds);
        List<byte[]> rowByRow = new ArrayList<>();
        for (int row = 0; row < rows; row++) {
          KeyBytes key = new KeyBytes();
          encoder.encode(batch, row, key);
          rowByRow.add(key.copy());
        }
        List<byte[]> batchWise = new ArrayList<>();
        encoder.encodeRows(batch, rows, new KeyBytes(), (row, key) -> batchWise.add(key.copy()));

        assertThat(batchWise).as("columns %s", fieldIds).containsExactlyElementsOf(rowByRow);
      }
    }
  }
}
