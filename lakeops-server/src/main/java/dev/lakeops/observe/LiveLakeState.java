package dev.lakeops.observe;

import static java.util.Objects.requireNonNull;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the daemon has reported, kept in memory for the dashboard: each table's latest evaluation
 * and its samples of the last {@link #HISTORY_WINDOW} (at most {@link #MAXIMUM_SAMPLES_PER_TABLE}
 * per table, oldest dropped first), the queue, the budget and the latest runs. Thread-safe.
 */
public final class LiveLakeState implements LakeObserver, LakeView {
  /** How much health history each table keeps. */
  public static final Duration HISTORY_WINDOW = Duration.ofDays(1);

  /** Samples kept per table at most: one a minute over a day. */
  public static final int MAXIMUM_SAMPLES_PER_TABLE = 1440;

  /** Runs kept at most. */
  public static final int MAXIMUM_RUNS = 500;

  private final Clock clock;
  private final Map<String, Deque<TableSample>> samples = new LinkedHashMap<>();
  private final Deque<RunSummary> runs = new ArrayDeque<>();
  private List<QueuedOperation> queue = List.of();
  private BudgetUse budget = BudgetUse.NONE;
  private LakeMembers members = LakeMembers.NONE;

  public LiveLakeState(Clock clock) {
    this.clock = requireNonNull(clock, "clock is null");
  }

  @Override
  public synchronized void tableEvaluated(TableSample sample) {
    Deque<TableSample> history =
        samples.computeIfAbsent(sample.table(), table -> new ArrayDeque<>());
    history.addLast(sample);
    Instant cutoff = clock.instant().minus(HISTORY_WINDOW);
    while (history.size() > MAXIMUM_SAMPLES_PER_TABLE
        || (history.size() > 1 && history.peekFirst().sampledAt().isBefore(cutoff))) {
      history.removeFirst();
    }
  }

  @Override
  public synchronized void membersChanged(
      String self, List<dev.lakeops.ledger.MemberRow> live, Map<String, String> owners) {
    members = new LakeMembers(self, live, owners, members.suspended());
  }

  @Override
  public synchronized void suspensionsChanged(List<dev.lakeops.ledger.SuspensionRow> suspended) {
    members = new LakeMembers(members.self(), members.live(), members.owners(), suspended);
  }

  @Override
  public synchronized LakeMembers members() {
    return members;
  }

  @Override
  public synchronized void tableRemoved(String table) {
    samples.remove(table);
  }

  @Override
  public synchronized void queueChanged(List<QueuedOperation> queue) {
    this.queue = List.copyOf(queue);
  }

  @Override
  public synchronized void budgetChanged(BudgetUse budget) {
    this.budget = requireNonNull(budget, "budget is null");
  }

  @Override
  public synchronized void runStarted(RunSummary run) {
    runs.removeIf(existing -> existing.runId().equals(run.runId()));
    runs.addFirst(run);
    while (runs.size() > MAXIMUM_RUNS) {
      runs.removeLast();
    }
  }

  @Override
  public synchronized void runFinished(RunSummary run) {
    runStarted(run);
  }

  @Override
  public void lockSkipped(String table) {}

  @Override
  public synchronized List<TableSample> tables() {
    List<TableSample> latest = new ArrayList<>();
    for (Deque<TableSample> history : samples.values()) {
      latest.add(history.peekLast());
    }
    latest.sort(Comparator.comparing(TableSample::table));
    return latest;
  }

  @Override
  public synchronized List<TableSample> history(String table, Instant since) {
    Deque<TableSample> history = samples.get(table);
    if (history == null) {
      return List.of();
    }
    return history.stream().filter(sample -> !sample.sampledAt().isBefore(since)).toList();
  }

  @Override
  public synchronized List<RunSummary> runs(Optional<String> table, int limit) {
    return runs.stream()
        .filter(run -> table.map(run.table()::equals).orElse(true))
        .sorted(Comparator.comparing(RunSummary::started).reversed())
        .limit(limit)
        .toList();
  }

  @Override
  public synchronized List<QueuedOperation> queue() {
    return queue;
  }

  @Override
  public synchronized BudgetUse budget() {
    return budget;
  }
}
