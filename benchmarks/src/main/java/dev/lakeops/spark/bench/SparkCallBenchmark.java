package dev.lakeops.spark.bench;

import dev.lakeops.demo.DemoTableGenerator;
import dev.lakeops.spark.LakeOpsProcedureCatalog;
import dev.lakeops.spark.bench.SideBySideBenchmark.TableState;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Both compactions as a Spark user runs them, in ONE local[2] Spark session: {@code CALL
 * lakeops.compact(...)} on one copy of a fragmented table and Iceberg's {@code CALL
 * sp.system.rewrite_data_files(...)} on an identical copy, both to 128 MB files; writes {@code
 * docs/benchmarks/spark-call-<size>.md}.
 *
 * <p>Arguments: {@code [size] [work directory] [report directory]}, size one of 200mb, 2gb (the
 * issue's ~2 GB table) or tiny. The generated source table lives in {@code <work>/<size>/source},
 * shared with {@link SideBySideBenchmark} and reused by later runs.
 */
public final class SparkCallBenchmark {
  private static final TableIdentifier TABLE = TableIdentifier.of("db", "events");
  private static final String LAKEOPS_CATALOG = "lk";
  private static final String SPARK_CATALOG = "sp";

  private SparkCallBenchmark() {}

  public static void main(String[] args) throws IOException {
    BenchmarkSize size = BenchmarkSize.parse(args.length > 0 ? args[0] : "tiny");
    Path work = Path.of(args.length > 1 ? args[1] : "target/benchmark").toAbsolutePath();
    Path reports = Path.of(args.length > 2 ? args[2] : "../docs/benchmarks").toAbsolutePath();
    Path run = work.resolve(size.label());
    String loadAtStart = ProcessMemory.loadAverage();

    Table source = sourceTable(run.resolve("source"), size);
    TableState before = TableState.of(source);
    log("source: %s", before);
    Path lakeopsWarehouse = run.resolve("call-lakeops");
    Path sparkWarehouse = run.resolve("call-spark");
    SideBySideBenchmark.deleteRecursively(lakeopsWarehouse);
    SideBySideBenchmark.deleteRecursively(sparkWarehouse);
    TableCopies.copy(source, SideBySideBenchmark.catalog(lakeopsWarehouse), TABLE);
    TableCopies.copy(source, SideBySideBenchmark.catalog(sparkWarehouse), TABLE);

    SparkSession spark = session(lakeopsWarehouse, sparkWarehouse);
    SparkCallReport.Phase lakeops;
    SparkCallReport.Phase rewriteDataFiles;
    try {
      warmUp(spark);
      lakeops =
          call(
              spark,
              "CALL lakeops.compact(table => '"
                  + LAKEOPS_CATALOG
                  + ".db.events', options => map("
                  + "'target-file-size-bytes', '"
                  + SideBySideBenchmark.TARGET_FILE_SIZE_BYTES
                  + "'), memory_budget => '"
                  + SideBySideBenchmark.MEMORY_BUDGET
                  + "')");
      rewriteDataFiles =
          call(
              spark,
              "CALL "
                  + SPARK_CATALOG
                  + ".system.rewrite_data_files(table => '"
                  + SPARK_CATALOG
                  + ".db.events',"
                  + " options => map('target-file-size-bytes', '"
                  + SideBySideBenchmark.TARGET_FILE_SIZE_BYTES
                  + "'))");
    } finally {
      spark.stop();
    }

    SparkCallReport report =
        new SparkCallReport(
            size,
            before,
            TableState.of(SideBySideBenchmark.catalog(lakeopsWarehouse).loadTable(TABLE)),
            TableState.of(SideBySideBenchmark.catalog(sparkWarehouse).loadTable(TABLE)),
            lakeops,
            rewriteDataFiles,
            Runtime.getRuntime().availableProcessors(),
            Runtime.getRuntime().maxMemory(),
            loadAtStart,
            ProcessMemory.loadAverage());
    ReportFiles.publish(
        reports,
        "spark-call-" + size.label() + ".md",
        report.markdown(),
        report.fingerprintsMatch(),
        "Row fingerprints differ after compaction");
  }

  private static SparkSession session(Path lakeopsWarehouse, Path sparkWarehouse) {
    SparkSession.Builder builder =
        BenchmarkSparkSessions.builder("lakeops-spark-call-benchmark")
            .config("spark.sql.catalog.lakeops", LakeOpsProcedureCatalog.class.getName());
    BenchmarkSparkSessions.withHadoopCatalog(builder, LAKEOPS_CATALOG, lakeopsWarehouse);
    BenchmarkSparkSessions.withHadoopCatalog(builder, SPARK_CATALOG, sparkWarehouse);
    return builder.getOrCreate();
  }

  /**
   * The session's first statement pays for the parser, analyzer and catalog start-up; run cheap
   * statements that touch both catalogs and the procedure catalog first, so neither CALL pays it.
   */
  private static void warmUp(SparkSession spark) {
    long started = System.nanoTime();
    spark.sql("SELECT 1").collectAsList();
    spark.sql("DESCRIBE TABLE " + LAKEOPS_CATALOG + ".db.events").collectAsList();
    spark.sql("DESCRIBE TABLE " + SPARK_CATALOG + ".db.events").collectAsList();
    spark.sql("SHOW PROCEDURES IN lakeops").collectAsList();
    log("warm-up statements took %s", Duration.ofNanos(System.nanoTime() - started));
  }

  /** Runs one CALL after a GC, with the RSS high-water mark reset, and times it. */
  static SparkCallReport.Phase call(SparkSession spark, String sql) {
    DirtyPages.flush();
    System.gc();
    ProcessMemory.resetPeak();
    String load = ProcessMemory.loadAverage();
    long started = System.nanoTime();
    Row result = spark.sql(sql).first();
    Duration wall = Duration.ofNanos(System.nanoTime() - started);
    log("%s -> %s in %s", sql, result, wall);
    Optional<Duration> engineTime =
        List.of(result.schema().fieldNames()).contains("seconds")
            ? Optional.of(
                Duration.ofNanos((long) (result.getDouble(result.fieldIndex("seconds")) * 1e9)))
            : Optional.empty();
    return new SparkCallReport.Phase(
        sql, wall, engineTime, ProcessMemory.peakResidentBytes(), load, result.toString());
  }

  static Table sourceTable(Path warehouse, BenchmarkSize size) {
    HadoopCatalog catalog = SideBySideBenchmark.catalog(warehouse);
    if (catalog.tableExists(TABLE)) {
      Table existing = catalog.loadTable(TABLE);
      if (existing.currentSnapshot() != null
          && Long.parseLong(existing.currentSnapshot().summary().get("total-data-files"))
              == size.files()) {
        log("reusing generated table %s", existing.location());
        return existing;
      }
      SideBySideBenchmark.deleteRecursively(warehouse);
      catalog = SideBySideBenchmark.catalog(warehouse);
    }
    long started = System.nanoTime();
    Table table =
        new DemoTableGenerator(catalog)
            .create(TABLE, 2, size.days(), size.files(), size.rowsPerFile(), 50);
    log("generated %d files in %s", size.files(), Duration.ofNanos(System.nanoTime() - started));
    return table;
  }

  private static void log(String format, Object... args) {
    System.out.printf("[spark-call-benchmark] " + format + "%n", args);
  }
}
