package dev.lakeops.web;

import static java.util.Objects.requireNonNull;

import dev.lakeops.observe.BudgetUse;
import dev.lakeops.observe.FileSizeHistogram;
import dev.lakeops.observe.LakeView;
import dev.lakeops.observe.QueuedOperation;
import dev.lakeops.observe.RunSummary;
import dev.lakeops.observe.TableInspector;
import dev.lakeops.observe.TableSample;
import dev.lakeops.operation.MaintenanceOperation;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * Builds the documents of the JSON API ({@code /api/tables}, {@code /api/tables/{table}}, {@code
 * /api/runs}) from a {@link LakeView}. The field names are a documented contract.
 */
public final class DashboardData {
  /** The overview's sparkline window. */
  public static final Duration SPARKLINE_WINDOW = Duration.ofDays(1);

  /** The table page's health-over-time window. */
  public static final Duration TABLE_HISTORY_WINDOW = Duration.ofDays(7);

  /** Runs on the overview and on a table page. */
  public static final int LATEST_RUNS = 50;

  private final LakeView lake;
  private final TableInspector inspector;
  private final RunPredictions predictions;
  private final Clock clock;

  public DashboardData(
      LakeView lake, TableInspector inspector, RunPredictions predictions, Clock clock) {
    this.lake = requireNonNull(lake, "lake is null");
    this.inspector = requireNonNull(inspector, "inspector is null");
    this.predictions = requireNonNull(predictions, "predictions is null");
    this.clock = requireNonNull(clock, "clock is null");
  }

  /** Health scores under this count as unhealthy on the overview. */
  public static final int UNHEALTHY_BELOW = 80;

  /** {@code /api/tables}: the first page of the tables, worst first. */
  public ApiDocuments.Lake lake() {
    return lake(TableQuery.DEFAULT);
  }

  /**
   * {@code /api/tables?q=&sort=&offset=&limit=}: one page of the tables the query selects, the
   * queue, the budget, the latest runs. Only the page's rows are built (their history and runs).
   */
  public ApiDocuments.Lake lake(TableQuery query) {
    requireNonNull(query, "query is null");
    Instant now = clock.instant();
    List<QueuedOperation> queue = lake.queue();
    List<RunSummary> runs = lake.runs(Optional.empty(), LATEST_RUNS);
    List<TableSample> all = lake.tables();
    int unhealthy = 0;
    List<TableSample> matching = new ArrayList<>();
    for (TableSample sample : all) {
      unhealthy += sample.healthScore() < UNHEALTHY_BELOW ? 1 : 0;
      if (query.matches(sample.table())) {
        matching.add(sample);
      }
    }
    Comparator<TableSample> byName = Comparator.comparing(TableSample::table);
    matching.sort(
        query.order() == TableQuery.Order.HEALTH
            ? Comparator.comparingInt(TableSample::healthScore).thenComparing(byName)
            : byName);
    int from = Math.min(query.offset(), matching.size());
    int to = (int) Math.min((long) from + query.limit(), matching.size());
    List<ApiDocuments.TableRow> rows = new ArrayList<>(to - from);
    for (TableSample sample : matching.subList(from, to)) {
      rows.add(row(sample, now, runs, queue));
    }
    BudgetUse budget = lake.budget();
    return new ApiDocuments.Lake(
        now.toString(),
        new ApiDocuments.Budget(budget.usedBytes(), budget.totalBytes()),
        rows,
        queue.stream().map(DashboardData::queued).toList(),
        runs.stream().map(this::run).toList(),
        all.size(),
        unhealthy,
        matching.size(),
        query.offset(),
        query.limit(),
        to < matching.size() ? to : null);
  }

  private ApiDocuments.TableRow row(
      TableSample sample, Instant now, List<RunSummary> runs, List<QueuedOperation> queue) {
    return new ApiDocuments.TableRow(
        sample.table(),
        sample.healthScore(),
        sample.worstPart(),
        sample.dataFiles(),
        sample.smallFiles(),
        sample.deleteFiles(),
        sample.dataBytes(),
        sample.sampledAt().toString(),
        points(lake.history(sample.table(), now.minus(SPARKLINE_WINDOW))),
        runs.stream()
            .filter(run -> run.table().equals(sample.table()))
            .findFirst()
            .map(this::run)
            .orElse(null),
        queued(queue, sample.table()));
  }

  /** {@code /api/members}: the live members, their tables and health; the suspended operations. */
  public ApiDocuments.Members members() {
    dev.lakeops.observe.LakeMembers members = lake.members();
    java.util.Map<String, Integer> health = new java.util.HashMap<>();
    for (TableSample sample : lake.tables()) {
      health.put(sample.table(), sample.healthScore());
    }
    List<ApiDocuments.Member> documents = new ArrayList<>();
    for (dev.lakeops.ledger.MemberRow member : members.live()) {
      List<String> tables =
          members.owners().entrySet().stream()
              .filter(owner -> owner.getValue().equals(member.memberId()))
              .map(java.util.Map.Entry::getKey)
              .sorted()
              .toList();
      java.util.IntSummaryStatistics scores =
          tables.stream().filter(health::containsKey).mapToInt(health::get).summaryStatistics();
      documents.add(
          new ApiDocuments.Member(
              member.memberId(),
              member.host(),
              member.pid(),
              member.startedAt().toString(),
              member.heartbeatAt().toString(),
              member.memberId().equals(members.self()),
              tables,
              scores.getCount() == 0 ? null : (int) Math.round(scores.getAverage()),
              scores.getCount() == 0 ? null : scores.getMin()));
    }
    return new ApiDocuments.Members(
        clock.instant().toString(),
        members.self(),
        documents,
        members.suspended().stream()
            .map(
                row ->
                    new ApiDocuments.Suspended(
                        row.tableName(),
                        row.operation(),
                        row.failures(),
                        row.lastError(),
                        row.suspendedAt().map(Instant::toString).orElse(null)))
            .toList());
  }

  /** {@code /api/tables/{table}}; empty for a table the daemon does not know. */
  public Optional<ApiDocuments.TableDetail> table(String table) {
    Instant now = clock.instant();
    Optional<TableSample> latest =
        lake.tables().stream().filter(sample -> sample.table().equals(table)).findFirst();
    if (latest.isEmpty()) {
      return Optional.empty();
    }
    List<RunSummary> runs = lake.runs(Optional.of(table), LATEST_RUNS);
    return Optional.of(
        new ApiDocuments.TableDetail(
            table,
            latest.get().healthScore(),
            latest.get().worstPart(),
            latest.get().dataFiles(),
            latest.get().smallFiles(),
            latest.get().deleteFiles(),
            latest.get().dataBytes(),
            latest.get().sampledAt().toString(),
            points(lake.history(table, now.minus(TABLE_HISTORY_WINDOW))),
            fileSizes(table, runs),
            rewrittenPerDay(runs),
            inspector.effectivePolicy(table).stream()
                .map(value -> new ApiDocuments.Policy(value.key(), value.value(), value.source()))
                .toList(),
            queued(lake.queue(), table),
            runs.stream().map(this::run).toList()));
  }

  /** {@code /api/runs}: the latest runs, newest first, of one table or all. */
  public ApiDocuments.Runs runs(Optional<String> table, int limit) {
    return new ApiDocuments.Runs(lake.runs(table, limit).stream().map(this::run).toList());
  }

  private ApiDocuments.FileSizes fileSizes(String table, List<RunSummary> runs) {
    OptionalLong compactionSnapshot =
        runs.stream()
            .filter(
                run ->
                    run.operation().equals(MaintenanceOperation.COMPACT.commandName())
                        && run.status().equals("succeeded"))
            .filter(run -> run.snapshotId().isPresent())
            .findFirst()
            .map(RunSummary::snapshotId)
            .orElse(OptionalLong.empty());
    long[] now = inspector.dataFileSizes(table, OptionalLong.empty()).orElse(new long[0]);
    Optional<long[]> after =
        compactionSnapshot.isPresent()
            ? inspector.dataFileSizes(table, compactionSnapshot)
            : Optional.empty();
    long largest = Math.max(largest(now), after.map(DashboardData::largest).orElse(0L));
    List<Long> bounds = FileSizeHistogram.boundsUpTo(largest);
    FileSizeHistogram nowHistogram = FileSizeHistogram.of(bounds, now);
    return new ApiDocuments.FileSizes(
        bounds,
        nowHistogram.counts(),
        after.map(sizes -> FileSizeHistogram.of(bounds, sizes).counts()).orElse(null),
        compactionSnapshot.isPresent() ? compactionSnapshot.getAsLong() : null,
        inspector.targetFileSizeBytes(table).isPresent()
            ? inspector.targetFileSizeBytes(table).getAsLong()
            : null);
  }

  private static long largest(long[] sizes) {
    long largest = 0;
    for (long size : sizes) {
      largest = Math.max(largest, size);
    }
    return largest;
  }

  private static List<ApiDocuments.DayBytes> rewrittenPerDay(List<RunSummary> runs) {
    Map<LocalDate, Long> perDay = new TreeMap<>();
    for (RunSummary run : runs) {
      if (run.status().equals("succeeded") && run.inputBytes() > 0) {
        perDay.merge(
            LocalDate.ofInstant(run.started(), ZoneOffset.UTC), run.inputBytes(), Long::sum);
      }
    }
    return perDay.entrySet().stream()
        .map(entry -> new ApiDocuments.DayBytes(entry.getKey().toString(), entry.getValue()))
        .toList();
  }

  private static List<ApiDocuments.HealthPoint> points(List<TableSample> samples) {
    return samples.stream()
        .map(
            sample ->
                new ApiDocuments.HealthPoint(
                    sample.sampledAt().getEpochSecond(),
                    sample.healthScore(),
                    sample.dataFiles(),
                    sample.smallFiles(),
                    sample.deleteFiles()))
        .toList();
  }

  private static List<ApiDocuments.Queued> queued(List<QueuedOperation> queue, String table) {
    return queue.stream()
        .filter(operation -> operation.table().equals(table))
        .map(DashboardData::queued)
        .toList();
  }

  private static ApiDocuments.Queued queued(QueuedOperation operation) {
    return new ApiDocuments.Queued(
        operation.table(),
        operation.operation(),
        operation.reason(),
        operation.benefitPerCost(),
        operation.predictedDuration().map(duration -> duration.toMillis() / 1000.0).orElse(null),
        operation.predictedMemoryBytes().isPresent()
            ? operation.predictedMemoryBytes().getAsLong()
            : null);
  }

  private ApiDocuments.Run run(RunSummary run) {
    Optional<RunPredictions.Prediction> prediction = predictions.of(run.runId());
    return new ApiDocuments.Run(
        run.runId(),
        run.table(),
        run.operation(),
        run.reason(),
        run.host(),
        run.started().toString(),
        run.finished().map(Instant::toString).orElse(null),
        run.status(),
        run.error().orElse(null),
        run.inputFiles(),
        run.outputFiles(),
        run.inputBytes(),
        run.outputBytes(),
        run.peakMemoryBytes(),
        run.duration().map(duration -> duration.toMillis() / 1000.0).orElse(null),
        run.commitConflicts(),
        run.snapshotId().isPresent() ? run.snapshotId().getAsLong() : null,
        prediction.map(RunPredictions.Prediction::seconds).orElse(null),
        prediction.map(RunPredictions.Prediction::peakMemoryBytes).orElse(null));
  }
}
