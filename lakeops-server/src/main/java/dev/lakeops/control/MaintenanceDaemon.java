package dev.lakeops.control;

import static java.util.Objects.requireNonNull;

import dev.lakeops.ledger.ProcessIdentity;
import dev.lakeops.ledger.RunQuery;
import dev.lakeops.ledger.RunRecord;
import dev.lakeops.ledger.RunStatus;
import dev.lakeops.operation.MaintenanceOperation;
import dev.lakeops.policy.LakeSettings;
import dev.lakeops.trigger.DueOperation;
import dev.lakeops.trigger.MaintenanceTriggers;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchTableException;

/**
 * {@code lakeops serve}: watches every table of a catalog, decides from metadata what each needs,
 * runs it within the lake's budget, and records every run. One scheduling thread (the caller of
 * {@link #run}) owns all state; operations run on a pool of {@code max-concurrent-tables} workers.
 */
public final class MaintenanceDaemon {
  /** The longest the scheduling thread sleeps without news from a worker. */
  static final Duration TICK = Duration.ofMillis(500);

  /** How long abandoned work gets to unwind after the grace period. */
  static final Duration ABANDON_WAIT = Duration.ofSeconds(10);

  private final ServeSettings settings;
  private final DaemonLog log;
  private final LakeTables lakeTables;
  private final LakeBudget budget;
  private final JobQueue queue;
  private final dev.lakeops.observe.LakeObserver observer;
  private final OperationRunner runner;
  private final ExecutorService workers;
  private final FailurePolicy failures;
  private final DecisionLog decisions;
  private final dev.lakeops.health.ManifestReads manifestReads =
      new dev.lakeops.health.ManifestReads();
  private final EvaluationPool evaluations;
  private final EvaluationCycles cycles;
  private final EvaluationJitter jitter =
      new EvaluationJitter(java.util.concurrent.ThreadLocalRandom.current());
  private final Map<MaintenanceJob, RunningJob> running = new java.util.IdentityHashMap<>();
  private final LinkedBlockingQueue<Completion> completions = new LinkedBlockingQueue<>();
  private final Map<TableIdentifier, TableWatch> watches = new LinkedHashMap<>();
  private final Set<TableIdentifier> skipped = new HashSet<>();
  private final CountDownLatch stopped = new CountDownLatch(1);
  private volatile boolean stopRequested;
  private volatile boolean abandoning;
  private boolean discoveredOnce;
  private DaemonMembership members;

  /** A job on a worker: when it started, and how to abandon it when it is stuck. */
  private record RunningJob(
      Instant started,
      dev.lakeops.unit.ByteSize memory,
      java.util.concurrent.atomic.AtomicReference<String> abandonment,
      java.util.concurrent.Future<?> work) {}

  /** A finished job, handed from a worker to the scheduling thread. */
  private record Completion(
      MaintenanceJob job, dev.lakeops.unit.ByteSize memory, JobOutcome outcome, Duration elapsed) {}

  public MaintenanceDaemon(ServeSettings settings) {
    this(
        settings,
        dev.lakeops.observe.LakeObserver.all(java.util.List.of()),
        dev.lakeops.learn.CompactionAdvisor.NONE);
  }

  /**
   * A daemon that reports to {@code observer} (metrics, dashboard) and sizes, predicts and orders
   * its compactions with {@code advisor} (the learning planner).
   */
  public MaintenanceDaemon(
      ServeSettings settings,
      dev.lakeops.observe.LakeObserver observer,
      dev.lakeops.learn.CompactionAdvisor advisor) {
    this.settings = requireNonNull(settings, "settings is null");
    this.observer = requireNonNull(observer, "observer is null");
    requireNonNull(advisor, "advisor is null");
    this.log = new DaemonLog(settings.log(), settings.clock());
    this.lakeTables = new LakeTables(settings.catalog(), log);
    LakeSettings lake = settings.policies().file().lakeSettings();
    this.budget = new LakeBudget(lake, advisor);
    this.queue = new JobQueue(advisor);
    this.runner =
        new OperationRunner(
            settings.catalog(),
            settings.catalogName(),
            settings.ledger(),
            settings.lockOptions(),
            settings.telemetryStore(),
            settings.clock(),
            advisor);
    // the budget bounds the jobs running at once; a stuck job abandoned past its deadline may keep
    // its thread while the job is tried again on another
    this.workers = Executors.newCachedThreadPool(workerThreads());
    this.failures = new FailurePolicy(settings, log, observer);
    this.decisions = new DecisionLog(log, failures, settings.dryRun());
    this.evaluations =
        new EvaluationPool(
            settings.catalog(),
            settings.policies(),
            settings.policies().file().evaluationThreads(),
            () -> completions.add(new Completion(null, null, null, null)));
    this.cycles = new EvaluationCycles(log, manifestReads);
  }

  /**
   * Runs until {@link #stop} (or, with {@code once}, until every table was looked at once and its
   * work done).
   */
  public void run() {
    try {
      LakeSettings lake = budget.settings();
      log.note(
          "started on catalog "
              + settings.catalogName()
              + " (policy "
              + settings.policies().file().fileName()
              + ", ledger "
              + settings.ledger().describe()
              + ", max-concurrent-tables "
              + lake.maxConcurrentTables()
              + ", memory "
              + lake.memory()
              + ", evaluation-threads "
              + settings.policies().file().evaluationThreads()
              + lake.maxBytesPerHour().map(limit -> ", max-bytes-per-hour " + limit).orElse("")
              + (settings.once() ? ", once" : "")
              + (settings.dryRun() ? ", dry run" : "")
              + ")");
      abandonRunsOfDeadProcesses();
      members = DaemonMembership.join(settings, log);
      Instant nextDiscovery = Instant.MIN;
      while (!stopRequested) {
        Instant now = settings.clock().instant();
        if (!now.isBefore(nextDiscovery)) {
          discover(now);
          nextDiscovery = now.plus(settings.discoveryInterval());
        }
        refreshOwnership(now);
        failures.refresh(now, watches.values());
        abandonStuckRuns(now);
        applyEvaluations();
        evaluateDueTables(now);
        dispatch(now);
        DaemonReports.queueAndBudget(observer, queue, budget, now);
        if (settings.once() && onceDone()) {
          break;
        }
        awaitCompletion(TICK);
      }
      shutDown();
    } finally {
      if (members != null) {
        members.close();
      }
      evaluations.close();
      failures.close();
      stopped.countDown();
    }
  }

  /** Asks the daemon to take no new work and stop; returns at once. */
  public void stop() {
    stopRequested = true;
    completions.add(new Completion(null, null, null, null));
  }

  /** Waits for {@link #run} to return; false when it did not within {@code timeout}. */
  public boolean awaitStopped(Duration timeout) throws InterruptedException {
    return stopped.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  public boolean isStopped() {
    return stopped.getCount() == 0;
  }

  /** Divides the tables among the live members again when it is time (or a table was found). */
  private void refreshOwnership(Instant now) {
    Set<String> tables = new java.util.LinkedHashSet<>();
    Set<String> busy = new HashSet<>();
    for (TableIdentifier table : watches.keySet()) {
      tables.add(table.toString());
      if (budget.isRunning(table)) {
        busy.add(table.toString());
      }
    }
    java.util.Optional<dev.lakeops.members.Ownership> previous = members.refresh(now, tables, busy);
    if (previous.isEmpty()) {
      return;
    }
    for (TableIdentifier table : watches.keySet()) {
      if (!members.owns(table)) {
        queue.removeTable(table);
      } else if (!previous.get().owns(table.toString())) {
        watches.get(table).nextEvaluation = now;
      }
    }
    dev.lakeops.members.Ownership ownership = members.ownership();
    observer.membersChanged(ownership.memberId(), ownership.liveMembers(), ownership.owners());
  }

  /**
   * Abandons the runs still going past their deadline ({@code failures.run-deadline}): {@link
   * FailurePolicy#abandonedStuck} records it and has the operation tried again, then the worker is
   * interrupted and its slot given back.
   */
  private void abandonStuckRuns(Instant now) {
    for (Map.Entry<MaintenanceJob, RunningJob> entry : List.copyOf(running.entrySet())) {
      MaintenanceJob job = entry.getKey();
      RunningJob work = entry.getValue();
      Duration deadline = job.policy().runDeadline();
      if (Duration.between(work.started(), now).compareTo(deadline) <= 0) {
        continue;
      }
      running.remove(job);
      String reason = FailurePolicy.stuckReason(deadline);
      // the ledger says why before the worker is interrupted, which may record its end itself
      work.abandonment().set(reason);
      failures.abandonedStuck(
          job, java.util.Optional.ofNullable(watches.get(job.table())), reason, now);
      work.work().cancel(true);
      budget.release(job.table(), work.memory());
    }
  }

  private boolean owns(TableIdentifier table) {
    return members == null || members.owns(table);
  }

  private void discover(Instant now) {
    List<TableIdentifier> listed;
    try {
      listed = lakeTables.list();
    } catch (RuntimeException e) {
      log.note(
          "cannot list the catalog's tables: " + DaemonLog.oneLine(e) + "; trying again later");
      return;
    }
    Set<TableIdentifier> present = new HashSet<>(listed);
    for (TableIdentifier table : listed) {
      if (!watches.containsKey(table)) {
        watches.put(
            table,
            new TableWatch(
                table,
                LedgerHistory.read(settings.ledger(), settings.catalogName(), table.toString()),
                now,
                settings.clock(),
                manifestReads));
        if (discoveredOnce) {
          log.table(table.toString(), "found");
          members.refreshSoon();
        }
      }
    }
    if (!discoveredOnce) {
      log.note("watching " + listed.size() + " table(s)");
    }
    discoveredOnce = true;
    for (TableIdentifier table : List.copyOf(watches.keySet())) {
      if (!present.contains(table)
          && !budget.isRunning(table)
          && !evaluations.isEvaluating(table)) {
        forget(table, "dropped from the catalog");
      }
    }
  }

  private void forget(TableIdentifier table, String why) {
    watches.remove(table);
    queue.removeTable(table);
    decisions.forget(table);
    cycles.forget(table);
    skipped.remove(table);
    log.table(table.toString(), why + "; no longer maintained");
    observer.tableRemoved(table.toString());
  }

  /**
   * Hands the tables due for a look to the evaluation pool, as many as it has room for, longest due
   * first: a table never looked at goes before one looked at a minute ago.
   */
  private void evaluateDueTables(Instant now) {
    if (stopRequested || !evaluations.hasRoom()) {
      return;
    }
    List<TableWatch> due = new ArrayList<>();
    for (TableWatch watch : watches.values()) {
      // cheapest first: on a large lake most tables are not due
      if (now.isBefore(watch.nextEvaluation)
          || (settings.once() && watch.evaluatedOnce)
          || evaluations.isEvaluating(watch.identifier)
          || !owns(watch.identifier)
          || budget.isRunning(watch.identifier)
          || queue.hasJobsFor(watch.identifier)) {
        continue;
      }
      due.add(watch);
    }
    due.sort(java.util.Comparator.comparing(watch -> watch.nextEvaluation));
    for (TableWatch watch : due) {
      if (!evaluations.hasRoom()) {
        return;
      }
      watch.evaluatedOnce = true;
      evaluations.submit(watch, now);
    }
  }

  /** Applies the evaluations the pool finished; starts what became due at once. */
  private void applyEvaluations() {
    List<EvaluationPool.Evaluated> finished = evaluations.collect();
    if (finished.isEmpty()) {
      return;
    }
    int maintained = (int) watches.keySet().stream().filter(this::owns).count();
    for (EvaluationPool.Evaluated evaluated : finished) {
      if (watches.get(evaluated.watch().identifier) != evaluated.watch()) {
        continue; // forgotten meanwhile
      }
      apply(evaluated);
      cycles.evaluated(evaluated.watch().identifier, maintained, settings.clock().instant());
    }
    dispatch(settings.clock().instant());
  }

  private void apply(EvaluationPool.Evaluated evaluated) {
    TableWatch watch = evaluated.watch();
    Instant now = evaluated.at();
    String name = watch.identifier.toString();
    RuntimeException failure = evaluated.failure();
    if (failure instanceof NoSuchTableException) {
      forget(watch.identifier, "dropped");
      return;
    } else if (failure instanceof dev.lakeops.policy.PolicyException e) {
      watch.nextEvaluation = now.plus(Duration.ofMinutes(5));
      if (skipped.add(watch.identifier)) {
        log.table(name, "skipped: " + DaemonLog.oneLine(e));
      }
      return;
    } else if (failure != null) {
      RuntimeException e = failure;
      watch.table = null;
      watch.nextEvaluation = now.plus(Duration.ofMinutes(15));
      if (skipped.add(watch.identifier)) {
        log.table(name, "skipped: not a readable Iceberg table: " + DaemonLog.oneLine(e));
      }
      return;
    }
    TableEvaluation evaluation = evaluated.evaluation().orElseThrow();
    skipped.remove(watch.identifier);
    observer.tableEvaluated(dev.lakeops.observe.TableSamples.of(name, evaluation.report(), now));
    List<DueOperation> due = evaluation.decision().due();
    Set<DueOperation> held = new HashSet<>();
    for (DueOperation operation : due) {
      if (failures.holds(watch, operation, evaluation)) {
        held.add(operation);
      }
    }
    decisions.decided(watch.identifier, evaluation, held);
    for (DueOperation operation : due) {
      if (!settings.dryRun() && !held.contains(operation)) {
        queue.add(new MaintenanceJob(watch.identifier, operation, evaluation.policy(), now));
      }
    }
    watch.delay =
        new MaintenanceTriggers()
            .nextEvaluationDelay(
                watch.lastReport,
                evaluation.report(),
                watch.delay,
                !due.isEmpty(),
                evaluation.policy(),
                now);
    watch.nextEvaluation = now.plus(jitter.spread(watch.delay));
    watch.lastReport = java.util.Optional.of(evaluation.report());
  }

  private void dispatch(Instant now) {
    while (!stopRequested) {
      java.util.Optional<JobQueue.Started> next = queue.startNext(budget, now);
      if (next.isEmpty()) {
        return;
      }
      MaintenanceJob job = next.get().job();
      dev.lakeops.unit.ByteSize memory = next.get().memory();
      log.table(
          job.table().toString(),
          OperationRunner.operationName(job.operation())
              + " started"
              + (job.operation().operation() == MaintenanceOperation.COMPACT
                  ? " (memory " + memory + ")"
                  : "")
              + ": "
              + job.operation().reason());
      java.util.concurrent.atomic.AtomicReference<String> abandonment =
          new java.util.concurrent.atomic.AtomicReference<>();
      java.util.concurrent.Future<?> work =
          workers.submit(
              () -> {
                long started = System.nanoTime();
                JobOutcome outcome =
                    runner.run(
                        job,
                        memory,
                        () ->
                            abandoning
                                ? java.util.Optional.of(OperationRunner.ABANDONED_AT_SHUTDOWN)
                                : java.util.Optional.ofNullable(abandonment.get()));
                completions.add(
                    new Completion(
                        job, memory, outcome, Duration.ofNanos(System.nanoTime() - started)));
              });
      running.put(job, new RunningJob(now, memory, abandonment, work));
    }
  }

  private void awaitCompletion(Duration timeout) {
    try {
      Completion first = completions.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
      if (first != null) {
        handle(first);
        Completion next;
        while ((next = completions.poll()) != null) {
          handle(next);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stopRequested = true;
    }
  }

  private void handle(Completion completion) {
    if (completion.job() == null) {
      return;
    }
    MaintenanceJob job = completion.job();
    if (running.remove(job) == null) {
      // abandoned past its deadline: its slot was given back then, and its failure counted
      return;
    }
    budget.release(job.table(), completion.memory());
    JobOutcome outcome = completion.outcome();
    DaemonReports.finished(
        observer, job, outcome, completion.elapsed(), settings.clock().instant());
    log.table(
        job.table().toString(),
        OperationRunner.operationName(job.operation())
            + " "
            + outcome.result().name().toLowerCase(java.util.Locale.ROOT)
            + " in "
            + String.format(
                java.util.Locale.ROOT, "%.1f s", completion.elapsed().toMillis() / 1000.0)
            + ": "
            + outcome.detail());
    TableWatch watch = watches.get(job.table());
    if (watch == null) {
      return;
    }
    Instant now = settings.clock().instant();
    if (outcome.result() == JobOutcome.Result.FAILED) {
      failures.failed(job, watch, outcome.detail(), now);
    } else if (outcome.result() == JobOutcome.Result.SUCCEEDED) {
      failures.succeeded(job);
    }
    switch (outcome.result()) {
      case SUCCEEDED, FAILED -> {
        // a compaction whose groups all lost to concurrent writes committed nothing: it does not
        // count for compact.min-interval, the partitions are still due
        if (!outcome.lostToWriters()) {
          watch.history =
              watch.history.withFinished(
                  job.operation().operation(), now, outcome.result() == JobOutcome.Result.FAILED);
        }
        // after any run (an expiry that freed files, a compaction) the table is evaluated again at
        // once
        watch.nextEvaluation = now;
      }
      case LOCKED -> {
        queue.removeTable(job.table());
        watch.nextEvaluation = now.plus(job.policy().pollInterval());
      }
      case ABANDONED -> watch.nextEvaluation = now;
    }
  }

  private boolean onceDone() {
    boolean allSeen =
        watches.values().stream().allMatch(watch -> watch.evaluatedOnce || !owns(watch.identifier));
    return allSeen && evaluations.inFlight() == 0 && queue.isEmpty() && budget.runningTables() == 0;
  }

  private void shutDown() {
    int running = budget.runningTables();
    if (running > 0) {
      log.note(
          "stopping: waiting up to "
              + settings.shutdownGrace().toSeconds()
              + " s for "
              + running
              + " running operation(s)");
    }
    workers.shutdown();
    Instant deadline = settings.clock().instant().plus(settings.shutdownGrace());
    while (budget.runningTables() > 0 && settings.clock().instant().isBefore(deadline)) {
      awaitCompletion(TICK);
    }
    if (budget.runningTables() > 0) {
      log.note(
          "grace period over: abandoning "
              + budget.runningTables()
              + " operation(s) before their commit");
      abandoning = true;
      workers.shutdownNow();
      Instant abandonDeadline = settings.clock().instant().plus(ABANDON_WAIT);
      while (budget.runningTables() > 0 && settings.clock().instant().isBefore(abandonDeadline)) {
        awaitCompletion(TICK);
      }
    }
    int queued = queue.size();
    log.note(
        "stopped"
            + (queued > 0 ? " (" + queued + " queued operation(s) left for the next start)" : ""));
  }

  /** Runs a killed daemon (or CLI) left {@code running}: marks them abandoned. */
  private void abandonRunsOfDeadProcesses() {
    List<RunRecord> open;
    try {
      open =
          settings
              .ledger()
              .list(
                  RunQuery.all().withCatalog(settings.catalogName()).withStatus(RunStatus.RUNNING));
    } catch (RuntimeException e) {
      log.note("cannot read the ledger: " + DaemonLog.oneLine(e));
      return;
    }
    List<RunRecord> dead =
        open.stream().filter(run -> ProcessIdentity.isGone(run.process())).toList();
    DeadRunFiles leftovers = new DeadRunFiles(settings.catalog());
    for (RunRecord run : dead) {
      String removed = settings.dryRun() ? "" : leftovers.removeLeftovers(run);
      if (!removed.isEmpty()) {
        log.table(
            run.table(),
            run.operation()
                + " run "
                + run.runId()
                + " of ended process "
                + run.process()
                + removed);
      }
      settings
          .ledger()
          .abandon(
              run.runId(),
              "process " + run.process() + " ended without finishing the run" + removed);
    }
    if (!dead.isEmpty()) {
      log.note(
          "marked "
              + dead.size()
              + " run(s) of ended processes abandoned: "
              + dead.stream()
                  .map(run -> run.table() + " " + run.operation())
                  .collect(Collectors.joining(", ")));
    }
  }

  private static ThreadFactory workerThreads() {
    AtomicInteger count = new AtomicInteger();
    return runnable -> {
      Thread thread = new Thread(runnable, "lakeops-serve-worker-" + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }
}
