package dev.lakeops.web;

import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.health.TableHealthInspector;
import dev.lakeops.observe.BudgetUse;
import dev.lakeops.observe.CatalogTableInspector;
import dev.lakeops.observe.LakeMetrics;
import dev.lakeops.observe.LakeObserver;
import dev.lakeops.observe.LiveLakeState;
import dev.lakeops.observe.PolicyValue;
import dev.lakeops.observe.QueuedOperation;
import dev.lakeops.observe.RunSummaries;
import dev.lakeops.observe.RunSummary;
import dev.lakeops.observe.TableSamples;
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
 * fed the way the daemon feeds it: a fragmented table compacted once, a fragmented table waiting
 * in the queue, a healthy table; a lock skip and a run that failed.
 */
final class ObservedLake implements AutoCloseable {
  static final String COMPACTED = "db.orders";
  static final String FRAGMENTED = "db.events";
  static final String HEALTHY = "db.customers";
  static final long BUDGET_TOTAL = 512L << 20;
  static final long BUDGET_USED = 96L << 20;

  final HadoopCatalog catalog;
  final LiveLakeState state;
  final LakeMetrics metrics = new LakeMetrics();
  final LakeObserver observer;
  final CompactionResult compaction;
  final RunSummary compactionRun;
  final RunSummary failedRun;
  final DashboardServer server;

  ObservedLake(Path warehouse) {
    catalog = new HadoopCatalog(new org.apache.hadoop.conf.Configuration(), warehouse.toString());
    Clock clock = Clock.systemUTC();
    state = new LiveLakeState(clock);
    observer = LakeObserver.all(List.of(state, metrics));
    Instant now = clock.instant();

    Table orders = SimpleTables.create(catalog, "orders", 2, Map.of());
    Table events = SimpleTables.create(catalog, "events", 2, Map.of());
    Table customers = SimpleTables.create(catalog, "customers", 2, Map.of("write.target-file-size-bytes", "2048"));
    long id = 0;
    for (int file = 0; file < 12; file++) {
      SimpleTables.append(orders, file % 2, id, 200);
      id += 200;
    }
    for (int file = 0; file < 8; file++) {
      SimpleTables.append(events, file % 2, id, 50);
      id += 50;
    }
    SimpleTables.append(customers, 0, id, 2000);

    // Health a day of samples back: orders degrading, customers steady.
    for (int hour = 24; hour >= 1; hour -= 2) {
      observer.tableEvaluated(TableSamples.of(COMPACTED, TableHealthInspector.inspect(orders), now.minus(Duration.ofHours(hour))));
      observer.tableEvaluated(TableSamples.of(HEALTHY, TableHealthInspector.inspect(customers), now.minus(Duration.ofHours(hour))));
    }
    Instant started = now.minusSeconds(30);
    compaction = new TableCompactor().compact(orders, CompactionRequest.binpack());
    compactionRun = RunSummaries.compaction("run-1", COMPACTED, "12 small files >= 5", "serve", started, compaction);
    observer.runStarted(compactionRun);
    observer.runFinished(compactionRun);
    failedRun =
        new RunSummary(
            "run-2", FRAGMENTED, "expire-snapshots", "3 snapshots older than 7d", "cli", now.minusSeconds(20),
            Optional.of(now.minusSeconds(18)), "failed", Optional.of("table locked by flink"), 0, 0, 0, 0, 0, 0,
            OptionalLong.empty());
    observer.runFinished(failedRun);
    observer.lockSkipped(FRAGMENTED);
    orders.refresh();
    observer.tableEvaluated(TableSamples.of(COMPACTED, TableHealthInspector.inspect(orders), now));
    observer.tableEvaluated(TableSamples.of(FRAGMENTED, TableHealthInspector.inspect(events), now));
    observer.tableEvaluated(TableSamples.of(HEALTHY, TableHealthInspector.inspect(customers), now));
    observer.queueChanged(
        List.of(new QueuedOperation(FRAGMENTED, "compact", "part=0: 4 small files >= 3", 0.75,
            Optional.of(Duration.ofSeconds(3)), OptionalLong.of(64L << 20))));
    observer.budgetChanged(new BudgetUse(BUDGET_USED, BUDGET_TOTAL));

    DashboardData data =
        new DashboardData(
            state,
            new CatalogTableInspector(catalog, table -> List.of(
                new PolicyValue("compact.min-small-files", "5", "default"),
                new PolicyValue("compact.target-file-size", "512MB", "table property write.target-file-size-bytes"))),
            RunPredictions.NONE, clock);
    server = DashboardServer.start(new InetSocketAddress("127.0.0.1", 0), data, metrics, () -> true);
  }

  Table load(String name) {
    return catalog.loadTable(TableIdentifier.parse(name));
  }

  @Override
  public void close() throws Exception {
    server.close();
    catalog.close();
  }
}
