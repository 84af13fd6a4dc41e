package dev.lakeops.rewrite.sort;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.memory.BufferAllocator;

/**
 * K-way merge of sorted runs: a priority queue of run readers ordered by their current row's key
 * (ties by run, so the merge is stable); the smallest row goes to the sink and its reader moves on.
 */
final class RunMerger {
  private RunMerger() {}

  static void merge(List<Path> runs, BufferAllocator allocator, RowSink sink) throws IOException {
    List<RunReader> readers = new ArrayList<>();
    try (BufferAllocator mergeAllocator =
        allocator.newChildAllocator("sort-merge-" + runs.size() + "-runs", 0, allocator.getLimit())) {
      try {
        PriorityQueue<RunReader> queue =
            new PriorityQueue<>(
                Math.max(1, runs.size()),
                (left, right) -> {
                  int byKey = SortKeys.compare(left.keys(), left.row(), right.keys(), right.row());
                  return byKey != 0 ? byKey : Integer.compare(left.ordinal(), right.ordinal());
                });
        for (int ordinal = 0; ordinal < runs.size(); ordinal++) {
          RunReader reader = RunReader.open(ordinal, runs.get(ordinal), mergeAllocator);
          if (reader != null) {
            readers.add(reader);
            queue.add(reader);
          }
        }
        while (!queue.isEmpty()) {
          RunReader smallest = queue.poll();
          sink.append(smallest.batch(), smallest.row());
          if (smallest.advance()) {
            queue.add(smallest);
          }
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
