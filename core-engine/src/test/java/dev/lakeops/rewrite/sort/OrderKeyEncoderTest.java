package dev.lakeops.rewrite.sort;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.rewrite.arrow.ArrowSchemas;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.NullOrder;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

class OrderKeyEncoderTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()),
          Types.NestedField.optional(3, "ts", Types.TimestampType.withZone()),
          Types.NestedField.optional(4, "day", Types.DateType.get()),
          Types.NestedField.optional(5, "amount", Types.DoubleType.get()));
  private static final int ROWS = 3_000;

  @Test
  void batchKeysEqualRowByRowKeysForEveryKindOfField() {
    SortOrder order =
        SortOrder.builderFor(SCHEMA)
            .asc("name", NullOrder.NULLS_LAST)
            .desc("ts", NullOrder.NULLS_FIRST)
            .asc("day")
            .desc("amount")
            .asc(Expressions.bucket("id", 16))
            .desc("id")
            .build();
    OrderKeyEncoder encoder = new OrderKeyEncoder(SCHEMA, order);
    try (BufferAllocator allocator = new RootAllocator(64L << 20);
        VectorSchemaRoot batch = VectorSchemaRoot.create(ArrowSchemas.toArrow(SCHEMA), allocator)) {
      fill(batch, new Random(11));
      List<byte[]> rowByRow = new ArrayList<>();
      KeyBytes key = new KeyBytes();
      for (int row = 0; row < ROWS; row++) {
        key.reset();
        encoder.encode(batch, row, key);
        rowByRow.add(key.copy());
      }
      List<byte[]> batched = new ArrayList<>();
      int[] expectedRow = {0};
      encoder.encodeRows(
          batch,
          ROWS,
          new KeyBytes(),
          (row, rowKey) -> {
            assertThat(row).isEqualTo(expectedRow[0]++);
            batched.add(rowKey.copy());
          });

      assertThat(batched).hasSize(ROWS);
      for (int row = 0; row < ROWS; row++) {
        assertThat(batched.get(row)).as("key of row %d", row).isEqualTo(rowByRow.get(row));
      }
      // the fields really differ: nulls and values of every column reach the keys
      assertThat(rowByRow.stream().map(bytes -> bytes.length).distinct().count()).isGreaterThan(3);
    }
  }

  private static void fill(VectorSchemaRoot batch, Random random) {
    BigIntVector ids = (BigIntVector) batch.getVector("id");
    VarCharVector names = (VarCharVector) batch.getVector("name");
    TimeStampMicroTZVector timestamps = (TimeStampMicroTZVector) batch.getVector("ts");
    DateDayVector days = (DateDayVector) batch.getVector("day");
    Float8Vector amounts = (Float8Vector) batch.getVector("amount");
    for (int row = 0; row < ROWS; row++) {
      ids.setSafe(row, random.nextLong());
      if (random.nextInt(10) == 0) {
        names.setNull(row);
      } else {
        names.setSafe(
            row,
            ("name-" + random.nextInt(50) + "\0x".repeat(random.nextInt(3)))
                .getBytes(StandardCharsets.UTF_8));
      }
      if (random.nextInt(10) == 0) {
        timestamps.setNull(row);
      } else {
        timestamps.setSafe(row, random.nextLong() >> 8);
      }
      if (random.nextInt(10) == 0) {
        days.setNull(row);
      } else {
        days.setSafe(row, random.nextInt(40_000) - 20_000);
      }
      if (random.nextInt(10) == 0) {
        amounts.setNull(row);
      } else {
        amounts.setSafe(row, random.nextGaussian() * 1e6);
      }
    }
    batch.setRowCount(ROWS);
  }
}
