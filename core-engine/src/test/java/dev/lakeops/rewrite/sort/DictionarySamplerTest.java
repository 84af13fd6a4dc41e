package dev.lakeops.rewrite.sort;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

class DictionarySamplerTest {
  private static final Schema SCHEMA =
      new Schema(
          List.of(
              Field.nullable("id", new ArrowType.Int(64, true)),
              Field.nullable("user", new ArrowType.Int(64, true)),
              Field.nullable("country", ArrowType.Utf8.INSTANCE),
              Field.nullable("payload", ArrowType.Utf8.INSTANCE),
              Field.nullable("mostly_null", ArrowType.Utf8.INSTANCE)));

  @Test
  void nearlyDistinctColumnsAreWrittenPlainAndRepetitiveOnesKeepTheirDictionary() {
    DictionarySampler sampler =
        new DictionarySampler(List.of("id", "user", "country", "payload", "mostly_null"));
    try (RootAllocator allocator = new RootAllocator(64L << 20)) {
      for (int batchIndex = 0; batchIndex < 6; batchIndex++) {
        try (VectorSchemaRoot batch = VectorSchemaRoot.create(SCHEMA, allocator)) {
          for (int row = 0; row < 8192; row++) {
            long id = batchIndex * 8192L + row;
            ((BigIntVector) batch.getVector("id")).setSafe(row, id);
            ((BigIntVector) batch.getVector("user")).setSafe(row, id % 5_000);
            text(batch, "country", row, "country-" + id % 20);
            text(batch, "payload", row, "session-" + Long.toHexString(id * 0x9E3779B97F4A7C15L));
            if (id % 100 == 0) {
              text(batch, "mostly_null", row, "value-" + id);
            } else {
              batch.getVector("mostly_null").setNull(row);
            }
          }
          batch.setRowCount(8192);
          sampler.sample(batch);
        }
      }
    }

    assertThat(sampler.plainColumns()).containsExactlyInAnyOrder("id", "payload");
  }

  private static void text(VectorSchemaRoot batch, String column, int row, String value) {
    ((VarCharVector) batch.getVector(column)).setSafe(row, value.getBytes(StandardCharsets.UTF_8));
  }
}
