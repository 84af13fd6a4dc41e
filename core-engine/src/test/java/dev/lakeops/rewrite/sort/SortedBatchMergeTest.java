package dev.lakeops.rewrite.sort;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Merging sorted batches through the loser tree gives the stable order of one full sort. */
class SortedBatchMergeTest {
  @ParameterizedTest(name = "{0} batches")
  @ValueSource(ints = {0, 1, 2, 3, 5, 8, 13, 64, 100})
  void mergesLikeAStableSortOfEveryRow(int batches) throws IOException {
    Random random = new Random(batches);
    int[][] values = new int[batches][];
    List<int[]> expected = new ArrayList<>();
    for (int batch = 0; batch < batches; batch++) {
      // some batches empty, few distinct values: many ties across batches
      int rows = random.nextInt(5) == 0 ? 0 : random.nextInt(300);
      values[batch] = random.ints(rows, 0, 40).sorted().toArray();
      for (int row = 0; row < rows; row++) {
        expected.add(new int[] {values[batch][row], batch, row});
      }
    }
    // stable: equal values keep batch order, then row order
    expected.sort(
        Comparator.<int[]>comparingInt(entry -> entry[0])
            .thenComparingInt(entry -> entry[1])
            .thenComparingInt(entry -> entry[2]));
    int[] rowCounts = Arrays.stream(values).mapToInt(batch -> batch.length).toArray();
    List<int[]> merged = new ArrayList<>();

    // prefixes hold value / 4 and a length past the prefix: ties on them go to the full-key order
    long[][] prefixes = new long[batches][];
    for (int batch = 0; batch < batches; batch++) {
      prefixes[batch] = new long[values[batch].length * SortKeys.PREFIX_SLOTS];
      for (int row = 0; row < values[batch].length; row++) {
        prefixes[batch][row * SortKeys.PREFIX_SLOTS] = values[batch][row] / 4;
        prefixes[batch][row * SortKeys.PREFIX_SLOTS + SortKeys.PREFIX_WORDS] = 17;
      }
    }
    SortedBatchMerge.merge(
        rowCounts,
        prefixes,
        (leftBatch, leftRow, rightBatch, rightRow) ->
            Integer.compare(values[leftBatch][leftRow], values[rightBatch][rightRow]),
        (batch, row) -> merged.add(new int[] {values[batch][row], batch, row}));

    assertThat(merged).hasSameSizeAs(expected);
    for (int index = 0; index < expected.size(); index++) {
      assertThat(merged.get(index))
          .as("row %d of the merge", index)
          .containsExactly(expected.get(index));
    }
  }
}
