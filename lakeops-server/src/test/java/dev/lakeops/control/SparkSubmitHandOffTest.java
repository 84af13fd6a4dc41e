package dev.lakeops.control;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.ledger.RunHost;
import dev.lakeops.ledger.RunRecord;
import dev.lakeops.ledger.RunStatus;
import dev.lakeops.testing.SimpleTables;
import dev.lakeops.verify.RowFingerprint;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Table;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How {@code serve --once} hands a large compaction to {@code execution.spark-submit.command} when
 * the program is missing, fails, or runs past its timeout: a failed run on the ledger with host
 * {@code spark-submit} and one line saying why, the table unchanged. (The real Spark application is
 * started in spark-extension's {@code ServeSparkSubmitTest}.)
 */
class SparkSubmitHandOffTest {
  @TempDir Path warehouse;
  @TempDir Path state;

  @Test
  void aMissingProgramFailsTheRunWithItsPath() throws Exception {
    RunRecord run = runOnce("/nonexistent/spark-submit compact lake.{table}", "4h");

    assertThat(run.status()).isEqualTo(RunStatus.FAILED);
    assertThat(run.error().orElseThrow())
        .startsWith(
            "cannot start execution.spark-submit.command '/nonexistent/spark-submit': Cannot run"
                + " program \"/nonexistent/spark-submit\"")
        .endsWith("; check the program's path");
  }

  @Test
  void aFailedApplicationIsRecordedWithItsErrorLineNotSparksLog() throws Exception {
    RunRecord run =
        runOnce(
            "sh -c 'echo \"26/12/03 14:00:00 INFO SparkContext: Running Spark\" >&2;"
                + " echo \"[TABLE_OR_VIEW_NOT_FOUND] The table $0 cannot be found.\" >&2;"
                + " echo \"26/12/03 14:00:01 INFO SparkContext: Successfully stopped\" >&2;"
                + " exit 1' lake.{table}",
            "4h");

    assertThat(run.status()).isEqualTo(RunStatus.FAILED);
    assertThat(run.error().orElseThrow())
        .startsWith(
            "spark-submit exited with 1: [TABLE_OR_VIEW_NOT_FOUND] The table lake.db.events cannot"
                + " be found. (full output: ");
  }

  @Test
  void anApplicationPastItsTimeoutIsKilled() throws Exception {
    long started = System.nanoTime();
    RunRecord run = runOnce("sh -c 'sleep 120' {table}", "2s");

    assertThat(run.status()).isEqualTo(RunStatus.FAILED);
    assertThat(run.error().orElseThrow())
        .startsWith(
            "spark-submit still running after 2s (execution.spark-submit.timeout): killed; its"
                + " output is in ");
    assertThat((System.nanoTime() - started) / 1e9).isLessThan(60);
  }

  @Test
  void aCompactionUnderTheThresholdRunsInsideServe() throws Exception {
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
    Table table = fragmentedTable(catalog);
    RowFingerprint before = RowFingerprint.of(table);
    try (DaemonHarness serve = new DaemonHarness(state.resolve("lakeops.db"))) {
      serve.runToEnd(
          serve
              .settings(catalog, policy("/nonexistent/spark-submit {table}", "4h", "1GB"))
              .withOnce(true));

      List<RunRecord> runs = serve.succeeded("db.events", "compact");
      assertThat(runs).hasSize(1);
      assertThat(runs.get(0).start().host()).isEqualTo(RunHost.SERVE);
    }
    table.refresh();
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
  }

  private RunRecord runOnce(String command, String timeout) throws Exception {
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
    Table table = fragmentedTable(catalog);
    long snapshot = table.currentSnapshot().snapshotId();
    try (DaemonHarness serve = new DaemonHarness(state.resolve("lakeops.db"))) {
      serve.runToEnd(serve.settings(catalog, policy(command, timeout, "1KB")).withOnce(true));

      List<RunRecord> runs =
          serve.runs("db.events").stream()
              .filter(run -> run.operation().equals("compact"))
              .toList();
      assertThat(runs).hasSize(1);
      assertThat(runs.get(0).start().host()).isEqualTo(RunHost.SPARK_SUBMIT);
      assertThat(runs.get(0).start().host().label()).isEqualTo("spark-submit");
      table.refresh();
      assertThat(table.currentSnapshot().snapshotId()).isEqualTo(snapshot);
      return runs.get(0);
    }
  }

  private static Table fragmentedTable(HadoopCatalog catalog) throws InterruptedException {
    Table table = SimpleTables.create(catalog, "events", 2, Map.of());
    try (LakeWriters writers = new LakeWriters()) {
      writers.preload(table, 0, 15, 30, 0);
    }
    table.refresh();
    return table;
  }

  private static String policy(String command, String timeout, String minBytes) {
    return """
        catalog:
          expire.enabled: false
          orphans.enabled: false
          manifests.enabled: false
          execution.spark-submit.command: "%s"
          execution.spark-submit.timeout: %s
          execution.spark-submit.min-bytes: %s
        """
        .formatted(command.replace("\\", "\\\\").replace("\"", "\\\""), timeout, minBytes);
  }
}
