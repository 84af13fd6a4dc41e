package dev.lakeops.rewrite.sort;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;

/**
 * K-way merge of sorted runs: a priority queue of run readers ordered by their current row's key
 * (ties by run, so the merge is stable). The smallest reader gives rows to the sink for as long as
 * they stay no greater than the next reader's row, then goes back into the queue; the sink is told
 * before a reader replaces its batch.
 */
final class RunMerger {
  private RunMerger() {}

  static void merge(List<Path> runs, BufferAllocator allocator, RowSink sink) throws IOException {
    List<RunReader> readers = new ArrayList<>();
    try (BufferAllocator mergeAllocator =
        allocator.newChildAllocator("sort-merge-" + runs.size() + "-runs", 0, allocator.getLimit())) {
      try {
        PriorityQueue<RunReader> queue = new PriorityQueue<>(Math.max(1, runs.size()), RunReader::compare);
        for (int ordinal = 0; ordinal < runs.size(); ordinal++) {
          RunReader reader = RunReader.open(ordinal, runs.get(ordinal), mergeAllocator);
          if (reader != null) {
            readers.add(reader);
            queue.add(reader);
          }
        }
        while (!queue.isEmpty()) {
          RunReader smallest = queue.poll();
          RunReader next = queue.peek();
          boolean more;
          do {
            sink.append(smallest.batch(), smallest.row());
            if (smallest.atLastRowOfBatch()) {
              sink.sourcesChanging();
            }
            more = smallest.advance();
          } while (more && (next == null || RunReader.compare(smallest, next) <= 0));
          if (more) {
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
