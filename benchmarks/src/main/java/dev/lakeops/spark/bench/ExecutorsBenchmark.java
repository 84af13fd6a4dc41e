package dev.lakeops.spark.bench;

import static dev.lakeops.spark.bench.ReportCells.fingerprint;
import static dev.lakeops.spark.bench.ReportCells.format;
import static dev.lakeops.spark.bench.ReportCells.mib;
import static dev.lakeops.spark.bench.ReportCells.row;
import static dev.lakeops.spark.bench.ReportCells.seconds;
import static dev.lakeops.spark.bench.ReportCells.throughput;

import dev.lakeops.spark.LakeOpsProcedureCatalog;
import dev.lakeops.spark.bench.SideBySideBenchmark.TableState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.spark.sql.SparkSession;

/**
 * Driver or executors, side by side with Spark: three identical copies of the fragmented benchmark
 * table in ONE Spark session on {@code local-cluster[2,1,1024]} (an in-process standalone master,
 * two worker JVMs each running one 1-core, 1 GB executor), compacted to 128 MB files by {@code CALL
 * lakeops.compact(..., execution => 'driver')}, {@code CALL lakeops.compact(..., execution =>
 * 'executors')} and Iceberg's {@code CALL sp.system.rewrite_data_files(...)} (which runs on the
 * same two executors). Checks every copy's row fingerprint against the source and writes {@code
 * docs/benchmarks/spark-executors-<size>.md}.
 *
 * <p>Arguments: {@code [size] [work directory] [report directory]}; needs {@code SPARK_HOME}
 * pointing at a directory whose {@code jars/} may be empty (the Maven profile sets it), the class
 * path reaches the executors through {@code spark.executor.extraClassPath}.
 */
public final class ExecutorsBenchmark {
  private static final TableIdentifier TABLE = TableIdentifier.of("db", "events");
  private static final List<String> CATALOGS = List.of("dr", "ex", "sp");

  private ExecutorsBenchmark() {}

  public static void main(String[] args) throws IOException {
    BenchmarkSize size = BenchmarkSize.parse(args.length > 0 ? args[0] : "tiny");
    Path work = Path.of(args.length > 1 ? args[1] : "target/benchmark").toAbsolutePath();
    Path reports = Path.of(args.length > 2 ? args[2] : "../docs/benchmarks").toAbsolutePath();
    Path run = work.resolve(size.label());
    String loadAtStart = ProcessMemory.loadAverage();
    Table source = SparkCallBenchmark.sourceTable(run.resolve("source"), size);
    TableState before = TableState.of(source);
    for (String catalog : CATALOGS) {
      Path warehouse = run.resolve("executors-" + catalog);
      SideBySideBenchmark.deleteRecursively(warehouse);
      TableCopies.copy(source, SideBySideBenchmark.catalog(warehouse), TABLE);
    }
    String target = Long.toString(SideBySideBenchmark.TARGET_FILE_SIZE_BYTES);
    List<String> statements =
        List.of(
            "CALL lakeops.compact(table => 'dr.db.events', options => map('target-file-size-bytes', '"
                + target
                + "'), memory_budget => '"
                + SideBySideBenchmark.MEMORY_BUDGET
                + "', execution => 'driver')",
            "CALL lakeops.compact(table => 'ex.db.events', options => map('target-file-size-bytes', '"
                + target
                + "'), execution => 'executors')",
            "CALL sp.system.rewrite_data_files(table => 'sp.db.events', options => map('target-file-size-bytes', '"
                + target
                + "'))");
    SparkSession spark = session(run);
    List<SparkCallReport.Phase> phases = new ArrayList<>();
    try {
      spark.range(0, 1000, 1, 2).count();
      for (String catalog : CATALOGS) {
        spark.sql("DESCRIBE TABLE " + catalog + ".db.events").collectAsList();
      }
      spark.sql("SHOW PROCEDURES IN lakeops").collectAsList();
      for (String statement : statements) {
        phases.add(SparkCallBenchmark.call(spark, statement));
      }
    } finally {
      spark.stop();
    }
    List<TableState> after = new ArrayList<>();
    for (String catalog : CATALOGS) {
      after.add(
          TableState.of(
              SideBySideBenchmark.catalog(run.resolve("executors-" + catalog)).loadTable(TABLE)));
    }
    boolean identical =
        after.stream().allMatch(state -> state.fingerprint().equals(before.fingerprint()));
    String markdown =
        markdown(size, before, after, phases, loadAtStart, ProcessMemory.loadAverage());
    ReportFiles.publish(
        reports,
        "spark-executors-" + size.label() + ".md",
        markdown,
        identical,
        "Row fingerprints differ after compaction");
  }

  private static SparkSession session(Path run) throws IOException {
    String sparkHome = System.getenv("SPARK_HOME");
    if (sparkHome == null) {
      throw new IllegalStateException(
          "SPARK_HOME is not set: run the benchmark through its Maven profile");
    }
    Files.createDirectories(Path.of(sparkHome, "jars"));
    SparkSession.Builder builder =
        SparkSession.builder()
            .master("local-cluster[2,1,1024]")
            .appName("lakeops-executors-benchmark")
            .config("spark.ui.enabled", "false")
            .config("spark.driver.host", "127.0.0.1")
            .config("spark.executorEnv.SPARK_SCALA_VERSION", "2.13")
            .config("spark.executor.extraClassPath", System.getProperty("java.class.path"))
            .config(
                "spark.sql.extensions",
                "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions")
            .config("spark.sql.catalog.lakeops", LakeOpsProcedureCatalog.class.getName());
    for (String catalog : CATALOGS) {
      BenchmarkSparkSessions.withHadoopCatalog(
          builder, catalog, run.resolve("executors-" + catalog));
    }
    return builder.getOrCreate();
  }

  private static String markdown(
      BenchmarkSize size,
      TableState before,
      List<TableState> after,
      List<SparkCallReport.Phase> phases,
      String loadAtStart,
      String loadAtEnd) {
    StringBuilder text = new StringBuilder();
    text.append("# Driver, executors and Spark's rewrite_data_files on local-cluster[2,1,1024] (")
        .append(size.label())
        .append(")\n\n");
    text.append(
        format(
            "Measured %s on %d processors **shared with other builds** (load average 1/5/15 min:"
                + " %s at the start, %s at the end; per phase below): read the ratios, not the absolute times."
                + " One Spark session on `local-cluster[2,1,1024]`: an in-process standalone master and two"
                + " worker JVMs, each running one executor JVM with 1 core and 1 GB; the driver JVM runs with the"
                + " benchmark heap. Source table: %,d Parquet files, %s, %,d rows, written by Iceberg's generic"
                + " Parquet writer; three identical copies (same files byte for byte) in three hadoop catalogs"
                + " `dr`, `ex`, `sp`, each compacted to target-file-size-bytes = 128 MB. LakeOps on the driver"
                + " has a 256 MB budget; on executors each executor has the default `spark.lakeops.executor.memory`"
                + " (25%% of its 1 GB heap). Peak RSS is the driver JVM's only (the executors are other processes).\n\n",
            Instant.now().truncatedTo(ChronoUnit.SECONDS),
            Runtime.getRuntime().availableProcessors(),
            loadAtStart,
            loadAtEnd,
            before.dataFiles(),
            mib(before.bytes()),
            before.fingerprint().rowCount()));
    String[] names = {
      "LakeOps, `execution => 'driver'`",
      "LakeOps, `execution => 'executors'`",
      "Spark `rewrite_data_files`"
    };
    text.append(
        "| | wall time | MiB/s | files after | bytes after | rows identical (count / checksum) | driver peak RSS | load at start |\n");
    text.append("|---|---|---|---|---|---|---|---|\n");
    for (int index = 0; index < phases.size(); index++) {
      SparkCallReport.Phase phase = phases.get(index);
      TableState state = after.get(index);
      row(
          text,
          names[index],
          seconds(phase.wall()),
          format("%.1f", throughput(before.bytes(), phase.wall())),
          format("%,d", state.dataFiles()),
          mib(state.bytes()),
          fingerprint(before, state),
          mib(phase.peakRssBytes()),
          phase.loadAtStart());
    }
    double driver = phases.get(0).wall().toNanos();
    double executors = phases.get(1).wall().toNanos();
    double spark = phases.get(2).wall().toNanos();
    text.append(
        format(
            "\nRatios (wall time): Spark / LakeOps on executors = **%.2f×**, Spark / LakeOps on the driver = **%.2f×**,"
                + " LakeOps driver / executors = **%.2f×**.\n\n",
            spark / executors, spark / driver, driver / executors));
    text.append("Statements, in the order they ran:\n\n");
    for (SparkCallReport.Phase phase : phases) {
      text.append("- `")
          .append(phase.sql())
          .append("`\n  → `")
          .append(phase.resultRow())
          .append("`\n");
    }
    text.append(
        "\nReproduce (generates the source table once under `benchmarks/target/benchmark/"
            + size.label()
            + "/source`, shared with the other Spark benchmarks):\n\n```bash\n"
            + ReportFiles.MAVEN_COMMAND
            + " -Dlakeops.benchmark.executors="
            + size.label()
            + "\n```\n");
    return text.toString();
  }
}
