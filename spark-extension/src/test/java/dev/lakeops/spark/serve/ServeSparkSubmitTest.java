package dev.lakeops.spark.serve;

import static dev.lakeops.spark.LocalSpark.dataFileCount;
import static dev.lakeops.spark.LocalSpark.fingerprint;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.control.MaintenanceDaemon;
import dev.lakeops.control.ServeSettings;
import dev.lakeops.ledger.JdbcRunLedger;
import dev.lakeops.ledger.RunHost;
import dev.lakeops.ledger.RunLedger;
import dev.lakeops.ledger.RunQuery;
import dev.lakeops.ledger.RunRecord;
import dev.lakeops.ledger.RunStatus;
import dev.lakeops.policy.PolicyFile;
import dev.lakeops.policy.PolicyResolver;
import dev.lakeops.spark.LakeOpsJob;
import dev.lakeops.spark.LocalSpark;
import dev.lakeops.spark.LocalSpark.Fingerprint;
import dev.lakeops.spark.SparkSessionPerClass;
import dev.lakeops.telemetry.store.StoreLocation;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve --once} hands a compaction over {@code execution.spark-submit.min-bytes} to a real
 * Spark application: a child JVM running {@code org.apache.spark.deploy.SparkSubmit} (what the
 * {@code spark-submit} script runs) with {@code --class dev.lakeops.spark.LakeOpsJob}, on the test
 * class path. The rows stay identical, the files are compacted, and the ledger has the run with
 * host {@code spark-submit} and the application's figures.
 */
class ServeSparkSubmitTest extends SparkSessionPerClass {
  @TempDir static Path state;

  @Test
  void aLargeCompactionRunsAsASparkApplicationAndIsRecordedInTheLedger() throws Exception {
    String table = "cat.db.events";
    spark.sql("CREATE TABLE " + table + " (id BIGINT, data STRING, ts TIMESTAMP) USING iceberg");
    for (int insert = 0; insert < 14; insert++) {
      spark.sql(
          "INSERT INTO "
              + table
              + " SELECT id, concat('d', id % 7), timestamp_seconds(id * 60) FROM range("
              + insert * 200
              + ", "
              + (insert + 1) * 200
              + ", 1, 1)");
    }
    Fingerprint before = fingerprint(spark, table);
    ByteArrayOutputStream log = new ByteArrayOutputStream();

    try (RunLedger ledger =
        JdbcRunLedger.open(
            StoreLocation.sqliteFile(state.resolve("lakeops.db")), Clock.systemUTC())) {
      ServeSettings settings =
          ServeSettings.of(
                  new HadoopCatalog(new Configuration(), warehouse.toString()),
                  "cat",
                  new PolicyResolver(PolicyFile.parse(policy(sparkSubmitCommand()), "policy.yaml")),
                  ledger)
              .withOnce(true)
              .withLog(new PrintStream(tee(log), true, StandardCharsets.UTF_8));
      new MaintenanceDaemon(settings).run();

      List<RunRecord> runs =
          ledger.list(RunQuery.all().withTable("db.events")).stream()
              .filter(run -> run.operation().equals("compact"))
              .toList();
      assertThat(runs).hasSize(1);
      RunRecord run = runs.get(0);
      assertThat(run.status())
          .as(log.toString(StandardCharsets.UTF_8))
          .isEqualTo(RunStatus.SUCCEEDED);
      assertThat(run.start().host()).isEqualTo(RunHost.SPARK_SUBMIT);
      assertThat(run.figures().inputFiles()).isEqualTo(14);
      assertThat(run.figures().outputFiles()).isEqualTo(1);
      assertThat(run.figures().inputBytes()).isPositive();
      assertThat(run.figures().outputBytes()).isPositive();
      spark.catalog().refreshTable(table);
      assertThat(run.figures().snapshotId()).hasValue(LocalSpark.currentSnapshotId(spark, table));
    }
    assertThat(log.toString(StandardCharsets.UTF_8))
        .contains("compact succeeded in ", "14 -> 1 files", "(spark-submit)");
    assertThat(fingerprint(spark, table)).isEqualTo(before);
    assertThat(dataFileCount(spark, table)).isEqualTo(1);
  }

  /** {@code java -cp <test class path> SparkSubmit ... --class LakeOpsJob <jar> compact ...}. */
  private static String sparkSubmitCommand() throws IOException {
    List<String> arguments = new ArrayList<>();
    arguments.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    arguments.add("-Xmx768m");
    for (String flag : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (flag.startsWith("--add-opens")
          || flag.startsWith("-Djdk.reflect")
          || flag.startsWith("-Dio.netty")) {
        arguments.add(flag);
      }
    }
    arguments.addAll(
        List.of(
            "-cp",
            System.getProperty("java.class.path"),
            "org.apache.spark.deploy.SparkSubmit",
            "--master",
            "local[1]",
            "--conf",
            "spark.ui.enabled=false",
            "--conf",
            "spark.driver.host=127.0.0.1",
            "--conf",
            "spark.sql.catalog.cat=org.apache.iceberg.spark.SparkCatalog",
            "--conf",
            "spark.sql.catalog.cat.type=hadoop",
            "--conf",
            "spark.sql.catalog.cat.warehouse=" + warehouse.toUri(),
            "--class",
            LakeOpsJob.class.getName(),
            emptyJar().toString(),
            "compact",
            "{catalog}.{table}"));
    return arguments.stream()
        .map(argument -> "'" + argument + "'")
        .collect(Collectors.joining(" "));
  }

  /** The primary resource spark-submit wants; the classes are on the JVM's class path already. */
  private static Path emptyJar() throws IOException {
    Path jar = state.resolve("application.jar");
    Manifest manifest = new Manifest();
    manifest.getMainAttributes().putValue("Manifest-Version", "1.0");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest)) {
      out.flush();
    }
    return jar;
  }

  private static String policy(String command) {
    return """
        catalog:
          expire.enabled: false
          orphans.enabled: false
          manifests.enabled: false
          execution.spark-submit.min-bytes: 1KB
          execution.spark-submit.timeout: 10m
          execution.spark-submit.command: "%s"
        """
        .formatted(command.replace("\\", "\\\\").replace("\"", "\\\""));
  }

  private static OutputStream tee(ByteArrayOutputStream log) {
    return new OutputStream() {
      @Override
      public void write(int b) {
        log.write(b);
        System.err.write(b);
      }
    };
  }
}
