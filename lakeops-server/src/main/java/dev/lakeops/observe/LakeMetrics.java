package dev.lakeops.observe;

import dev.lakeops.ledger.ObjectRequests;
import dev.lakeops.ledger.RunCost;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.ExpositionFormats;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Unit;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

/**
 * The daemon's Prometheus metrics, kept in the Prometheus Java client's registry and written in
 * whichever exposition format the scraper asks for. Every name here is a documented contract
 * (docs/observability.md): change none of them.
 *
 * <p>The per-table series ({@code lakeops_table_*}) are bounded: they cover at most {@code
 * maxTableSeries} tables ({@code metrics.table-series}), the worst by health score first (then by
 * name), chosen again at every scrape; a table that leaves the worst loses its series. {@code
 * lakeops_tables} and {@code lakeops_tables_unhealthy} count every table.
 */
public final class LakeMetrics implements LakeObserver {
  /** Upper bounds of {@code lakeops_run_duration_seconds}: a second to two hours. */
  static final double[] DURATION_BUCKETS_SECONDS = {
    1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600, 7200
  };

  /** The per-table series kept unless {@code metrics.table-series} says otherwise. */
  public static final int DEFAULT_TABLE_SERIES = 100;

  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final int maxTableSeries;
  private final java.util.Map<String, TableSample> latest = new java.util.HashMap<>();
  private final java.util.Set<String> exported = new java.util.HashSet<>();
  private final ExpositionFormats formats = ExpositionFormats.init();
  private final Gauge healthScore =
      tableGauge(
          "lakeops_table_health_score", "Health score of the table, 0 (worst) to 100 (healthy).");
  private final Gauge dataFiles =
      tableGauge("lakeops_table_data_files", "Live data files of the table.");
  private final Gauge smallFiles =
      tableGauge("lakeops_table_small_files", "Live data files under the small-file size.");
  private final Gauge deleteFiles =
      tableGauge("lakeops_table_delete_files", "Live position and equality delete files.");
  private final Counter runs =
      Counter.builder()
          .name("lakeops_runs_total")
          .help(
              "Maintenance runs that ended, by operation, final status and the host that started them.")
          .labelNames("operation", "status", "host")
          .register(registry);
  private final Counter rewrittenBytes =
      Counter.builder()
          .name("lakeops_rewritten_bytes_total")
          .help("Bytes read and rewritten by maintenance runs that ended, by operation.")
          .labelNames("operation")
          .unit(Unit.BYTES)
          .register(registry);
  private final Histogram runDuration =
      Histogram.builder()
          .name("lakeops_run_duration_seconds")
          .help("Wall time of maintenance runs that ended, by operation.")
          .labelNames("operation")
          .unit(Unit.SECONDS)
          .classicOnly()
          .classicUpperBounds(DURATION_BUCKETS_SECONDS)
          .register(registry);
  private final Gauge queueDepth =
      Gauge.builder()
          .name("lakeops_queue_depth")
          .help("Operations queued and not started.")
          .register(registry);
  private final Gauge budgetUsed =
      Gauge.builder()
          .name("lakeops_memory_budget_used_bytes")
          .help("Memory of the lake-wide budget held by running jobs.")
          .unit(Unit.BYTES)
          .register(registry);
  private final Gauge budgetTotal =
      Gauge.builder()
          .name("lakeops_memory_budget_bytes")
          .help("The lake-wide memory budget; 0 when none is configured.")
          .unit(Unit.BYTES)
          .register(registry);
  private final Counter commitConflicts =
      Counter.builder()
          .name("lakeops_commit_conflicts_total")
          .help(
              "File groups of compactions a concurrent change conflicted with (retried, re-based or dropped).")
          .register(registry);
  private final Counter objectRequests =
      Counter.builder()
          .name("lakeops_object_requests_total")
          .help(
              "Object storage requests made while maintenance runs ran, by operation and kind (GET, PUT, HEAD, LIST, DELETE, OTHER).")
          .labelNames("operation", "kind")
          .register(registry);
  private final Counter objectBytesRead =
      Counter.builder()
          .name("lakeops_object_read_bytes_total")
          .help("Bytes of object storage GET responses while maintenance runs ran, by operation.")
          .labelNames("operation")
          .unit(Unit.BYTES)
          .register(registry);
  private final Counter objectBytesWritten =
      Counter.builder()
          .name("lakeops_object_written_bytes_total")
          .help("Bytes of object storage PUT requests while maintenance runs ran, by operation.")
          .labelNames("operation")
          .unit(Unit.BYTES)
          .register(registry);
  private final Counter runCpu =
      Counter.builder()
          .name("lakeops_run_cpu_seconds_total")
          .help("CPU time of the whole process while maintenance runs ran, by operation.")
          .labelNames("operation")
          .unit(Unit.SECONDS)
          .register(registry);
  private final Counter verifiedRows =
      Counter.builder()
          .name("lakeops_verified_rows_total")
          .help("Rows of committed file groups, each proved unchanged before its commit.")
          .register(registry);
  private final Counter verificationFailures =
      Counter.builder()
          .name("lakeops_verification_failures_total")
          .help("File groups that failed verification: not committed, their new files deleted.")
          .register(registry);
  private final Counter lockSkips =
      Counter.builder()
          .name("lakeops_lock_skips_total")
          .help("Times a table was skipped because another engine held its lock.")
          .register(registry);

  private final Gauge suspendedOperations =
      Gauge.builder()
          .name("lakeops_operation_suspended")
          .help(
              "1 for each operation suspended on a table after failing failures.suspend-after times in a row, by table and operation.")
          .labelNames("table", "operation")
          .register(registry);
  private final Gauge liveMembers =
      Gauge.builder()
          .name("lakeops_members_live")
          .help("serve processes sharing the store that are alive, this one included.")
          .register(registry);
  private final Gauge ownedTables =
      Gauge.builder()
          .name("lakeops_member_owned_tables")
          .help("Tables this serve process owns (maintains) among those sharing the store.")
          .register(registry);
  private final java.util.Set<List<String>> suspendedLabels = new java.util.HashSet<>();
  private final Gauge tables =
      Gauge.builder()
          .name("lakeops_tables")
          .help("Tables serve evaluated (every table, whatever metrics.table-series is).")
          .register(registry);
  private final Gauge unhealthyTables =
      Gauge.builder()
          .name("lakeops_tables_unhealthy")
          .help("Tables whose last health score is under 90 (every table).")
          .register(registry);

  /** Metrics with per-table series for the {@value #DEFAULT_TABLE_SERIES} worst tables. */
  public LakeMetrics() {
    this(DEFAULT_TABLE_SERIES);
  }

  /** Metrics with per-table series for the {@code maxTableSeries} worst tables. */
  public LakeMetrics(int maxTableSeries) {
    if (maxTableSeries < 1) {
      throw new IllegalArgumentException(
          "metrics.table-series must be at least 1, got " + maxTableSeries);
    }
    this.maxTableSeries = maxTableSeries;
  }

  private Gauge tableGauge(String name, String help) {
    return Gauge.builder().name(name).help(help).labelNames("table").register(registry);
  }

  @Override
  public synchronized void tableEvaluated(TableSample sample) {
    latest.put(sample.table(), sample);
  }

  @Override
  public synchronized void tableRemoved(String table) {
    latest.remove(table);
    removeSeries(table);
  }

  /** Sets the per-table series of the worst tables and drops those of the others. */
  private synchronized void refreshTableSeries() {
    List<TableSample> worst =
        latest.values().stream()
            .sorted(
                java.util.Comparator.comparingInt(TableSample::healthScore)
                    .thenComparing(TableSample::table))
            .limit(maxTableSeries)
            .toList();
    java.util.Set<String> now = new java.util.HashSet<>();
    for (TableSample sample : worst) {
      now.add(sample.table());
      healthScore.labelValues(sample.table()).set(sample.healthScore());
      dataFiles.labelValues(sample.table()).set(sample.dataFiles());
      smallFiles.labelValues(sample.table()).set(sample.smallFiles());
      deleteFiles.labelValues(sample.table()).set(sample.deleteFiles());
    }
    for (String table : exported) {
      if (!now.contains(table)) {
        removeSeries(table);
      }
    }
    exported.clear();
    exported.addAll(now);
    tables.set(latest.size());
    unhealthyTables.set(
        latest.values().stream().filter(sample -> sample.healthScore() < 90).count());
  }

  private void removeSeries(String table) {
    for (Gauge gauge : List.of(healthScore, dataFiles, smallFiles, deleteFiles)) {
      gauge.remove(table);
    }
  }

  @Override
  public void queueChanged(List<QueuedOperation> queue) {
    queueDepth.set(queue.size());
  }

  @Override
  public void budgetChanged(BudgetUse budget) {
    budgetUsed.set(budget.usedBytes());
    budgetTotal.set(budget.totalBytes());
  }

  @Override
  public void runStarted(RunSummary run) {}

  @Override
  public void runFinished(RunSummary run) {
    runs.labelValues(run.operation(), run.status(), run.host()).inc();
    rewrittenBytes.labelValues(run.operation()).inc(run.inputBytes());
    run.duration()
        .ifPresent(
            duration -> runDuration.labelValues(run.operation()).observe(duration.toNanos() / 1e9));
    if (run.commitConflicts() > 0) {
      commitConflicts.inc(run.commitConflicts());
    }
    countCost(run.operation(), run.cost());
    verifiedRows.inc(run.verifiedRows());
    verificationFailures.inc(run.verificationFailures());
  }

  private void countCost(String operation, RunCost cost) {
    ObjectRequests requests = cost.requests();
    objectRequests.labelValues(operation, "GET").inc(requests.get());
    objectRequests.labelValues(operation, "PUT").inc(requests.put());
    objectRequests.labelValues(operation, "HEAD").inc(requests.head());
    objectRequests.labelValues(operation, "LIST").inc(requests.list());
    objectRequests.labelValues(operation, "DELETE").inc(requests.delete());
    if (requests.other() > 0) {
      objectRequests.labelValues(operation, "OTHER").inc(requests.other());
    }
    objectBytesRead.labelValues(operation).inc(cost.bytesRead());
    objectBytesWritten.labelValues(operation).inc(cost.bytesWritten());
    runCpu.labelValues(operation).inc(cost.cpuSeconds());
  }

  @Override
  public void lockSkipped(String table) {
    lockSkips.inc();
  }

  @Override
  public synchronized void suspensionsChanged(List<dev.lakeops.ledger.SuspensionRow> suspended) {
    java.util.Set<List<String>> now = new java.util.HashSet<>();
    for (dev.lakeops.ledger.SuspensionRow row : suspended) {
      now.add(List.of(row.tableName(), row.operation()));
    }
    for (List<String> labels : suspendedLabels) {
      if (!now.contains(labels)) {
        suspendedOperations.remove(labels.get(0), labels.get(1));
      }
    }
    for (List<String> labels : now) {
      suspendedOperations.labelValues(labels.get(0), labels.get(1)).set(1);
    }
    suspendedLabels.clear();
    suspendedLabels.addAll(now);
  }

  @Override
  public void membersChanged(
      String self, List<dev.lakeops.ledger.MemberRow> live, java.util.Map<String, String> owners) {
    liveMembers.set(live.size());
    ownedTables.set(owners.values().stream().filter(self::equals).count());
  }

  /**
   * Writes every metric in the format {@code acceptHeader} asks for (Prometheus text when it asks
   * for none the client knows) and returns that format's content type.
   */
  public String write(String acceptHeader, OutputStream out) throws IOException {
    refreshTableSeries();
    ExpositionFormatWriter writer = formats.findWriter(acceptHeader);
    writer.write(out, registry.scrape());
    return writer.getContentType();
  }
}
