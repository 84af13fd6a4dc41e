package dev.lakeops.rewrite.sort;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * K-way merge of sorted runs: a {@link LoserTree} of run readers ordered by their current row's key
 * (ties by run, so the merge is stable). The sink is told before a reader replaces its batch.
 */
final class RunMerger {
  private RunMerger() {}

  /**
   * Merges {@code runs} of {@code schema}, sorted with {@code encoder}'s keys, into {@code sink}.
   */
  static void merge(
      List<Path> runs,
      Schema schema,
      BufferAllocator allocator,
      SortKeyEncoder encoder,
      RowSink sink)
      throws IOException {
    List<RunReader> readers = new ArrayList<>();
    try (BufferAllocator mergeAllocator =
            allocator.newChildAllocator(
                "sort-merge-" + runs.size() + "-runs", 0, allocator.getLimit());
        RunDecompression decompression = new RunDecompression()) {
      try {
        long[] heads = new long[Math.max(1, runs.size()) * SortKeys.PREFIX_SLOTS];
        for (Path run : runs) {
          // readers are numbered densely, empty runs left out, so reader i keeps its key in head i
          RunReader reader =
              RunReader.open(
                  readers.size(), run, schema, mergeAllocator, decompression, heads, encoder);
          if (reader != null) {
            readers.add(reader);
          }
        }
        RunReader[] sources = readers.toArray(RunReader[]::new);
        LoserTree tree =
            new LoserTree(
                new boolean[sources.length],
                heads,
                (left, right) -> sources[left].compareKey(sources[right]));
        int winner;
        while ((winner = tree.winner()) >= 0) {
          RunReader reader = sources[winner];
          sink.append(reader.columns(), reader.row());
          if (reader.atLastRowOfBatch()) {
            sink.sourcesChanging();
          }
          tree.advanceWinner(!reader.advance());
        }
      } finally {
        closeAll(readers);
      }
    }
  }

  private static void closeAll(List<RunReader> readers) throws IOException {
    try {
      AutoCloseables.close(readers);
    } catch (IOException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException("Cannot close run readers", e);
    }
  }
}
