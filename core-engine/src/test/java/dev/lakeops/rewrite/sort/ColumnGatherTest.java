package dev.lakeops.rewrite.sort;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;

/**
 * The bulk copy gives the same vector, value by value and null by null, as Arrow's copyFromSafe.
 */
class ColumnGatherTest {
  private static final int SOURCES = 3;
  private static final int SOURCE_ROWS = 500;
  private static final int PICKED = 3000;

  @Test
  void copiesLikeCopyFromSafeForEveryVectorKind() {
    Random random = new Random(11);
    try (BufferAllocator allocator = new RootAllocator()) {
      check(
          allocator,
          random,
          name -> new VarCharVector(name, allocator),
          (vector, row, value) ->
              ((VarCharVector) vector)
                  .setSafe(
                      row,
                      ("value-" + "x".repeat(value % 80) + value)
                          .getBytes(StandardCharsets.UTF_8)));
      check(
          allocator,
          random,
          name -> new BigIntVector(name, allocator),
          (vector, row, value) -> ((BigIntVector) vector).setSafe(row, value * 1_000_003L));
      check(
          allocator,
          random,
          name -> new IntVector(name, allocator),
          (vector, row, value) -> ((IntVector) vector).setSafe(row, -value));
      check(
          allocator,
          random,
          name -> new DecimalVector(name, allocator, 38, 2),
          (vector, row, value) ->
              ((DecimalVector) vector).setSafe(row, BigDecimal.valueOf(value * 7919L, 2)));
      check(
          allocator,
          random,
          name -> new BitVector(name, allocator),
          (vector, row, value) -> ((BitVector) vector).setSafe(row, value % 3 == 0 ? 1 : 0));
    }
  }

  private static void check(
      BufferAllocator allocator,
      Random random,
      Function<String, FieldVector> create,
      ValueFill fill) {
    check(allocator, random, create, fill, 7);
    check(allocator, random, create, fill, 0);
  }

  /** One null in {@code nullEvery} source rows on average, or none for 0. */
  private static void check(
      BufferAllocator allocator,
      Random random,
      Function<String, FieldVector> create,
      ValueFill fill,
      int nullEvery) {
    List<FieldVector> sources = new ArrayList<>();
    try (FieldVector gathered = create.apply("gathered");
        FieldVector expected = create.apply("expected")) {
      for (int source = 0; source < SOURCES; source++) {
        FieldVector vector = create.apply("source-" + source);
        sources.add(vector);
        vector.allocateNew();
        for (int row = 0; row < SOURCE_ROWS; row++) {
          if (nullEvery == 0 || random.nextInt(nullEvery) != 0) {
            fill.set(vector, row, row + source * SOURCE_ROWS);
          } else {
            vector.setNull(row);
          }
        }
        vector.setValueCount(SOURCE_ROWS);
      }
      List<SourceColumns> columns =
          sources.stream().map(vector -> SourceColumns.of(VectorSchemaRoot.of(vector))).toList();
      assertThat(
              columns.stream().anyMatch(source -> ColumnSet.contains(source.columnsWithNulls(), 0)))
          .as("some source holds a null")
          .isEqualTo(nullEvery != 0);
      gathered.allocateNew();
      expected.allocateNew();
      FieldVector[] picked = new FieldVector[PICKED];
      int[] rows = new int[PICKED];
      for (int index = 0; index < PICKED; index++) {
        picked[index] = sources.get(random.nextInt(SOURCES));
        rows[index] = random.nextInt(SOURCE_ROWS);
        expected.copyFromSafe(rows[index], index, picked[index]);
      }
      // in uneven slices, as the sorter's gathers are
      int done = 0;
      while (done < PICKED) {
        int count = Math.min(PICKED - done, 1 + random.nextInt(700));
        SourceColumns[] slice = new SourceColumns[count];
        boolean mayHoldNulls = false;
        for (int index = 0; index < count; index++) {
          slice[index] = columns.get(sources.indexOf(picked[done + index]));
          mayHoldNulls |= ColumnSet.contains(slice[index].columnsWithNulls(), 0);
        }
        int[] sliceRows = java.util.Arrays.copyOfRange(rows, done, done + count);
        ColumnGather.copy(gathered, 0, done, GatherPicks.of(slice, sliceRows, count), mayHoldNulls);
        done += count;
      }
      gathered.setValueCount(PICKED);
      expected.setValueCount(PICKED);
      for (int index = 0; index < PICKED; index++) {
        assertThat(gathered.getObject(index))
            .as("%s row %s", gathered.getClass().getSimpleName(), index)
            .isEqualTo(expected.getObject(index));
      }
    } finally {
      sources.forEach(FieldVector::close);
    }
  }

  /** Sets row {@code row} of {@code vector} to a value made from {@code value}. */
  @FunctionalInterface
  private interface ValueFill {
    void set(FieldVector vector, int row, int value);
  }
}
