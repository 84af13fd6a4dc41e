package dev.lakeops.trino.run;

import static java.util.Objects.requireNonNull;

import com.google.inject.Inject;
import dev.lakeops.trino.connector.LakeOpsConfig;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * The latest procedure runs of this coordinator, oldest first, at most {@code
 * lakeops.run-history-size} of them; kept in memory, so a restart empties it.
 */
public final class ProcedureRunHistory {
  private final int capacity;
  private final Deque<ProcedureRun> runs = new ArrayDeque<>();

  @Inject
  public ProcedureRunHistory(LakeOpsConfig config) {
    this(requireNonNull(config, "config is null").getRunHistorySize());
  }

  public ProcedureRunHistory(int capacity) {
    if (capacity < 0) {
      throw new IllegalArgumentException("capacity must not be negative: " + capacity);
    }
    this.capacity = capacity;
  }

  public synchronized void add(ProcedureRun run) {
    requireNonNull(run, "run is null");
    if (capacity == 0) {
      return;
    }
    if (runs.size() == capacity) {
      runs.removeFirst();
    }
    runs.addLast(run);
  }

  public synchronized List<ProcedureRun> runs() {
    return List.copyOf(runs);
  }
}
