package dev.lakeops.control;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.health.EvaluationKind;
import dev.lakeops.health.ManifestReads;
import dev.lakeops.policy.PolicyFile;
import dev.lakeops.policy.PolicyResolver;
import dev.lakeops.testing.SimpleTables;
import dev.lakeops.trigger.MaintenanceHistory;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The evaluation pool evaluates tables in parallel and, through each table's tracker, reads no
 * manifest of a table whose snapshot did not change: only the changed table costs reads.
 */
class EvaluationPoolTest {
  private static final int TABLES = 6;

  @TempDir Path warehouse;

  @Test
  void aSecondCycleReadsOnlyTheManifestsOfTheTableThatChanged() throws Exception {
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
    ManifestReads reads = new ManifestReads();
    List<TableWatch> watches = new ArrayList<>();
    List<Table> tables = new ArrayList<>();
    for (int index = 0; index < TABLES; index++) {
      Table table = SimpleTables.create(catalog, "t" + index, 2, Map.of());
      for (int file = 0; file < 3; file++) {
        SimpleTables.append(table, file % 2, file * 10L, 10);
      }
      tables.add(table);
      watches.add(
          new TableWatch(
              TableIdentifier.parse("db.t" + index),
              MaintenanceHistory.none(),
              Instant.now(),
              Clock.systemUTC(),
              reads));
    }
    Semaphore finished = new Semaphore(0);
    PolicyResolver policies = new PolicyResolver(PolicyFile.parse("catalog: {}\n", "policy.yaml"));
    try (EvaluationPool pool = new EvaluationPool(catalog, policies, 3, finished::release)) {
      List<EvaluationPool.Evaluated> first = cycle(pool, watches, finished);
      long afterFirst = reads.total();
      List<EvaluationPool.Evaluated> second = cycle(pool, watches, finished);
      long afterSecond = reads.total();
      SimpleTables.append(tables.get(2), 0, 100L, 10);
      List<EvaluationPool.Evaluated> third = cycle(pool, watches, finished);

      assertThat(first).allSatisfy(one -> assertThat(one.failure()).isNull());
      assertThat(afterFirst).isEqualTo(TABLES * 3L);
      assertThat(kinds(second)).containsOnly(EvaluationKind.UNCHANGED);
      assertThat(afterSecond).isEqualTo(afterFirst);
      assertThat(reads.total()).isEqualTo(afterSecond + 1);
      assertThat(kinds(third)).containsOnlyOnce(EvaluationKind.INCREMENTAL);
    }
  }

  private static List<EvaluationPool.Evaluated> cycle(
      EvaluationPool pool, List<TableWatch> watches, Semaphore finished)
      throws InterruptedException {
    for (TableWatch watch : watches) {
      pool.submit(watch, Instant.now());
    }
    assertThat(finished.tryAcquire(watches.size(), 60, TimeUnit.SECONDS)).isTrue();
    List<EvaluationPool.Evaluated> collected = pool.collect();
    assertThat(collected).hasSize(watches.size());
    assertThat(pool.inFlight()).isZero();
    return collected;
  }

  private static List<EvaluationKind> kinds(List<EvaluationPool.Evaluated> evaluated) {
    return evaluated.stream().map(one -> one.evaluation().orElseThrow().report().kind()).toList();
  }
}
