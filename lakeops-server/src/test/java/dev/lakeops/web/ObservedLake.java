package dev.lakeops.web;

import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.health.TableHealthTracker;
import dev.lakeops.ledger.ObjectRequests;
import dev.lakeops.ledger.RunCost;
import dev.lakeops.observe.BudgetUse;
import dev.lakeops.observe.CatalogTableInspector;
import dev.lakeops.observe.LakeMetrics;
import dev.lakeops.observe.LakeObserver;
import dev.lakeops.observe.LiveLakeState;
import dev.lakeops.observe.PolicyValues;
import dev.lakeops.observe.QueuedOperation;
import dev.lakeops.observe.RunSummaries;
import dev.lakeops.observe.RunSummary;
import dev.lakeops.observe.TableSamples;
import dev.lakeops.policy.PolicyFile;
import dev.lakeops.policy.PolicyResolver;
import dev.lakeops.testing.SimpleTables;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;

/**
 * A small real lake (Iceberg tables written by Iceberg in a Hadoop catalog) and a dashboard server
 * fed the way the daemon feeds it: a fragmented table compacted once, a fragmented table waiting in
 * the queue, a healthy table; a lock skip and a run that failed.
 */
public final class ObservedLake implements AutoCloseable {
  public static final String COMPACTED = "db.orders";
  public static final String FRAGMENTED = "db.events";
  public static final String HEALTHY = "db.customers";
  public static final long BUDGET_TOTAL = 512L << 20;
  public static final long BUDGET_USED = 96L << 20;

  /** What the failed expiry cost on object storage. */
  public static final RunCost FAILED_RUN_COST =
      new RunCost(new ObjectRequests(40, 0, 3, 2, 9, 1), 1_000_000, 0, 4, 1.5, 0.75);

  public static final PolicyResolver POLICY =
      new PolicyResolver(
          PolicyFile.parse(
              "catalog:\n  compact.min-small-files: 12\nnamespaces:\n  db:\n    expire.retain-last: 5\n"
                  + "tables:\n  db.orders:\n    compact.options.partial-progress.enabled: true\n",
              "policy.yaml"));

  public final HadoopCatalog catalog;
  public final LiveLakeState state;
  public final LakeMetrics metrics = new LakeMetrics();
  public final LakeObserver observer;
  public final CompactionResult compaction;
  public final RunSummary compactionRun;
  public final RunSummary failedRun;
  public final DashboardServer server;

  public ObservedLake(Path warehouse) {
    catalog = new HadoopCatalog(new org.apache.hadoop.conf.Configuration(), warehouse.toString());
    Clock clock = Clock.systemUTC();
    state = new LiveLakeState(clock);
    observer = LakeObserver.all(List.of(state, metrics));
    Instant now = clock.instant();

    Table orders = SimpleTables.create(catalog, "orders", 2, Map.of());
    Table events = SimpleTables.create(catalog, "events", 2, Map.of());
    Table customers =
        SimpleTables.create(
            catalog, "customers", 2, Map.of("write.target-file-size-bytes", "2048"));
    TableHealthTracker tracker = new TableHealthTracker(clock);
    long id = 0;
    SimpleTables.append(customers, 0, id, 2000);
    id += 2000;
    // A day of history: orders fragments by streaming commits while customers stays healthy.
    for (int step = 0; step < 12; step++) {
      Instant at = now.minus(Duration.ofHours(23 - 2L * step));
      SimpleTables.append(orders, 0, id, 200);
      SimpleTables.append(orders, 1, id + 200, 200);
      id += 400;
      observer.tableEvaluated(TableSamples.of(COMPACTED, tracker.evaluate(orders), at));
      observer.tableEvaluated(TableSamples.of(HEALTHY, tracker.evaluate(customers), at));
    }
    for (int file = 0; file < 16; file++) {
      SimpleTables.append(events, 0, id, 50);
      id += 50;
    }
    Instant started = now.minusSeconds(30);
    compaction = new TableCompactor().compact(orders, CompactionRequest.binpack());
    compactionRun =
        RunSummaries.compaction(
            "run-1", COMPACTED, "12 small files >= 5", "serve", started, compaction);
    observer.runStarted(compactionRun);
    observer.runFinished(compactionRun);
    failedRun =
        new RunSummary(
            "run-2",
            FRAGMENTED,
            "expire-snapshots",
            "3 snapshots older than 7d",
            "cli",
            now.minusSeconds(20),
            Optional.of(now.minusSeconds(18)),
            "failed",
            Optional.of("table locked by flink"),
            0,
            0,
            0,
            0,
            0,
            0,
            OptionalLong.empty(),
            FAILED_RUN_COST);
    observer.runFinished(failedRun);
    observer.lockSkipped(FRAGMENTED);
    observer.tableEvaluated(TableSamples.of(COMPACTED, tracker.evaluate(orders), now));
    observer.tableEvaluated(TableSamples.of(FRAGMENTED, tracker.evaluate(events), now));
    observer.tableEvaluated(TableSamples.of(HEALTHY, tracker.evaluate(customers), now));
    observer.queueChanged(
        List.of(
            new QueuedOperation(
                FRAGMENTED,
                "compact",
                "part=0: 16 small files >= 12",
                0.75,
                Optional.of(Duration.ofSeconds(3)),
                OptionalLong.of(64L << 20))));
    observer.budgetChanged(new BudgetUse(BUDGET_USED, BUDGET_TOTAL));

    DashboardData data =
        new DashboardData(
            state,
            new CatalogTableInspector(
                catalog,
                table ->
                    PolicyValues.of(
                        POLICY.resolve(
                            TableIdentifier.parse(
                                table.name().substring(table.name().indexOf('.') + 1)),
                            table.properties()))),
            RunPredictions.NONE,
            clock);
    server =
        DashboardServer.start(new InetSocketAddress("127.0.0.1", 0), data, metrics, () -> true);
  }

  public Table load(String name) {
    return catalog.loadTable(TableIdentifier.parse(name));
  }

  @Override
  public void close() throws Exception {
    server.close();
    catalog.close();
  }
}
