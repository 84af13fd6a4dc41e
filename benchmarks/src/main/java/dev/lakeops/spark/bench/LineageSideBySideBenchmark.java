package dev.lakeops.spark.bench;

import static dev.lakeops.spark.bench.ReportCells.format;
import static dev.lakeops.spark.bench.ReportCells.mib;
import static dev.lakeops.spark.bench.ReportCells.seconds;

import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.compact.TableCompactor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.iceberg.Table;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Binpack of a format v3 table written by Spark, with deletion vectors, side by side: LakeOps'
 * {@code TableCompactor} (decode-free merge, which writes {@code _row_id} and {@code
 * _last_updated_sequence_number} into the new files) and Spark's {@code rewrite_data_files}. Spark
 * writes the table ({@link SparkWrittenTable}'s rows, {@code format-version = 3}) and applies the
 * {@link DeletesSideBySide#DELETE_PREDICATES} merge-on-read, so every data file gets a deletion
 * vector. Both engines run in this JVM, each first compacting the table {@value #WARM_UP_RUNS}
 * times unmeasured (rolled back after each), so that both are measured with their code compiled:
 * then, {@value #MEASURED_RUNS} times, LakeOps compacts, the table is rolled back to the snapshot
 * before, and Spark compacts the same state (Spark's session is idle while LakeOps runs); each
 * engine's median run is reported. Measured: wall time, user and system CPU time of the process
 * from {@code /proc/self/stat}. Before and after each measured phase, Spark reads the live rows'
 * lineage and all their columns: count and checksum must agree.
 *
 * <p>Arguments: {@code [size] [work directory] [report directory]}; the report goes to {@code
 * lineage-v3-<size>-spark-written.md}.
 */
public final class LineageSideBySideBenchmark {
  private static final String TABLE = "bench.db.events";
  private static final Path PROCESS_STAT = Path.of("/proc/self/stat");

  /** The kernel's clock ticks per second ({@code getconf CLK_TCK}; 100 on Linux). */
  private static final long TICKS_PER_SECOND = 100;

  /** Unmeasured runs of each engine before the measured ones: the JIT compiles their code. */
  static final int WARM_UP_RUNS = 5;

  /**
   * Measured pairs (LakeOps, then Spark, on the same state): single runs of a few seconds vary by a
   * fifth on a shared 2-processor machine, so each engine's median run is reported.
   */
  static final int MEASURED_RUNS = 3;

  /** The longest wait for the JVM to settle before a measured phase. */
  private static final Duration LONGEST_SETTLE = Duration.ofSeconds(60);

  /** CPU time over half a second under which the JVM counts as settled: a tenth of a processor. */
  private static final Duration SETTLED_CPU = Duration.ofMillis(50);

  private LineageSideBySideBenchmark() {}

  public static void main(String[] args) throws IOException {
    BenchmarkSize size = BenchmarkSize.parse(args.length > 0 ? args[0] : "200mb");
    Path work = Path.of(args.length > 1 ? args[1] : "target/benchmark").toAbsolutePath();
    Path reports = Path.of(args.length > 2 ? args[2] : "../docs/benchmarks").toAbsolutePath();
    Path warehouse = work.resolve(size.label()).resolve("lineage-v3");
    SideBySideBenchmark.deleteRecursively(warehouse);
    SparkSession spark =
        BenchmarkSparkSessions.withHadoopCatalog(
                BenchmarkSparkSessions.builder("lakeops-benchmark-lineage"), "bench", warehouse)
            .config("spark.sql.session.timeZone", "UTC")
            .getOrCreate();
    try {
      write(spark, size);
      Table table = SideBySideBenchmark.catalog(warehouse).loadTable(SideBySideBenchmark.TABLE);
      long snapshotBefore = table.currentSnapshot().snapshotId();
      Map<String, String> summary = table.currentSnapshot().summary();
      Checksums before = Checksums.of(spark);
      SideBySideBenchmark.log("with deletion vectors: %s, %s", summary, before);

      for (int run = 0; run < WARM_UP_RUNS; run++) {
        SideBySideBenchmark.log("warm-up %d of %d", run + 1, WARM_UP_RUNS);
        lakeops(table);
        table.manageSnapshots().rollbackTo(snapshotBefore).commit();
        spark.sql("REFRESH TABLE " + TABLE);
        spark(spark);
        table.refresh();
        table.manageSnapshots().rollbackTo(snapshotBefore).commit();
        spark.sql("REFRESH TABLE " + TABLE);
      }
      List<LakeOpsPhase> lakeopsRuns = new ArrayList<>();
      List<Phase> sparkRuns = new ArrayList<>();
      boolean kept = true;
      Checksums afterLakeOps = null;
      Checksums afterSpark = null;
      DataFiles lakeopsFiles = null;
      DataFiles sparkFiles = null;
      for (int run = 0; run < MEASURED_RUNS; run++) {
        SideBySideBenchmark.log("measured pair %d of %d", run + 1, MEASURED_RUNS);
        table.refresh();
        settle();
        LakeOpsPhase lakeops = lakeops(table);
        lakeopsRuns.add(lakeops);
        spark.sql("REFRESH TABLE " + TABLE);
        afterLakeOps = Checksums.of(spark);
        lakeopsFiles = dataFiles(spark);
        kept &=
            before.equals(afterLakeOps)
                && lakeops.result().copiedBytes() == lakeops.result().inputBytes();
        table.manageSnapshots().rollbackTo(snapshotBefore).commit();
        spark.sql("REFRESH TABLE " + TABLE);
        settle();
        sparkRuns.add(spark(spark));
        spark.sql("REFRESH TABLE " + TABLE);
        afterSpark = Checksums.of(spark);
        sparkFiles = dataFiles(spark);
        kept &= before.equals(afterSpark);
        table.refresh();
        table.manageSnapshots().rollbackTo(snapshotBefore).commit();
        spark.sql("REFRESH TABLE " + TABLE);
      }

      String report =
          markdown(
              size,
              summary,
              before,
              lakeopsRuns,
              afterLakeOps,
              lakeopsFiles,
              sparkRuns,
              afterSpark,
              sparkFiles);
      ReportFiles.publish(
          reports,
          "lineage-v3-" + size.label() + "-spark-written.md",
          report,
          kept,
          "Lineage or rows differ after compaction, or LakeOps decoded");
    } finally {
      spark.stop();
    }
  }

  /** Writes the table commit by commit, then deletes rows merge-on-read (deletion vectors). */
  private static void write(SparkSession spark, BenchmarkSize size) {
    int days = Math.max(1, size.days());
    int filesPerCommit = SparkWrittenTable.TASKS_PER_COMMIT * days;
    int commits = size.files() / filesPerCommit;
    long rowsPerCommit = (long) size.rowsPerFile() * filesPerCommit;
    spark.sql("CREATE NAMESPACE IF NOT EXISTS bench.db");
    spark.sql(
        "CREATE TABLE "
            + TABLE
            + " (event_id BIGINT, user_id BIGINT, country STRING, event_type STRING,"
            + " amount DOUBLE, ts TIMESTAMP, day DATE, payload STRING) USING iceberg"
            + (size.days() > 0 ? " PARTITIONED BY (day)" : "")
            + " TBLPROPERTIES ('format-version' = '3', 'write.parquet.compression-codec' = 'zstd',"
            + " 'write.distribution-mode' = 'none', 'write.spark.fanout.enabled' = 'true',"
            + " 'write.delete.mode' = 'merge-on-read')");
    long started = System.nanoTime();
    for (int commit = 0; commit < commits; commit++) {
      long from = commit * rowsPerCommit;
      spark.sql(
          "INSERT INTO "
              + TABLE
              + " "
              + SparkWrittenTable.rows(
                  from, from + rowsPerCommit, days, SparkWrittenTable.TASKS_PER_COMMIT));
      if ((commit + 1) % 25 == 0) {
        SideBySideBenchmark.log(
            "Spark INSERT %d of %d after %s",
            commit + 1, commits, Duration.ofNanos(System.nanoTime() - started));
      }
    }
    for (String predicate : DeletesSideBySide.DELETE_PREDICATES) {
      spark.sql("DELETE FROM " + TABLE + " WHERE " + predicate);
    }
  }

  /**
   * Collects garbage, then waits until this JVM uses under {@link #SETTLED_CPU} of CPU over half a
   * second (at most {@link #LONGEST_SETTLE}): the compiler threads and Spark's cleaners finish what
   * the phases before left, so that neither engine's measured phase pays for the other's.
   */
  private static void settle() {
    long started = System.nanoTime();
    System.gc();
    CpuTimes before = CpuTimes.now();
    while (System.nanoTime() - started < LONGEST_SETTLE.toNanos()) {
      try {
        Thread.sleep(500);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      CpuTimes after = CpuTimes.now();
      CpuTimes used = after.minus(before);
      if (used.user().plus(used.system()).compareTo(SETTLED_CPU) <= 0) {
        break;
      }
      before = after;
    }
    SideBySideBenchmark.log(
        "settled after %.1f s", (System.nanoTime() - started) / 1_000_000_000.0);
  }

  private static LakeOpsPhase lakeops(Table table) {
    CompactionRequest request =
        CompactionRequest.builder()
            .options(
                Map.of(
                    "target-file-size-bytes",
                    String.valueOf(SideBySideBenchmark.TARGET_FILE_SIZE_BYTES)))
            .memoryBudget(SideBySideBenchmark.MEMORY_BUDGET)
            .build();
    String load = ProcessMemory.loadAverage();
    CpuTimes start = CpuTimes.now();
    CompactionResult result = new TableCompactor().compact(table, request);
    LakeOpsPhase phase = new LakeOpsPhase(CpuTimes.now().minus(start), load, result);
    SideBySideBenchmark.log("lakeops: %s, %s", result, phase.times());
    return phase;
  }

  private static Phase spark(SparkSession spark) {
    String load = ProcessMemory.loadAverage();
    CpuTimes start = CpuTimes.now();
    spark
        .sql(
            "CALL bench.system.rewrite_data_files(table => 'db.events', options => map("
                + "'target-file-size-bytes', '"
                + SideBySideBenchmark.TARGET_FILE_SIZE_BYTES
                + "'))")
        .collectAsList()
        .forEach(row -> SideBySideBenchmark.log("spark: %s", row));
    Phase phase = new Phase(CpuTimes.now().minus(start), load);
    SideBySideBenchmark.log("spark: %s", phase.times());
    return phase;
  }

  private static DataFiles dataFiles(SparkSession spark) {
    Row row =
        spark.sql("SELECT count(*), sum(file_size_in_bytes) FROM " + TABLE + ".data_files").first();
    return new DataFiles(row.getLong(0), row.getLong(1));
  }

  /** The table's data files: how many, and their bytes. */
  private record DataFiles(long count, long bytes) {
    @Override
    public String toString() {
      return count + " (" + mib(bytes) + ")";
    }
  }

  private static String markdown(
      BenchmarkSize size,
      Map<String, String> summary,
      Checksums before,
      List<LakeOpsPhase> lakeopsRuns,
      Checksums afterLakeOps,
      DataFiles lakeopsFiles,
      List<Phase> sparkRuns,
      Checksums afterSpark,
      DataFiles sparkFiles) {
    LakeOpsPhase lakeops = median(lakeopsRuns, LakeOpsPhase::times);
    Phase spark = median(sparkRuns, Phase::times);
    StringBuilder text = new StringBuilder();
    text.append(
            "# Binpack of a v3 table with deletion vectors: LakeOps vs Spark rewrite_data_files (")
        .append(size.label())
        .append(", Spark-written table)\n\n");
    text.append(
        format(
            "Measured %s on commit %s, %d processors shared with other work (load average 1/5/15"
                + " min at the"
                + " end: %s). Source table: format version 3, written by Spark (%s data files,"
                + " %s), then %s by Spark with `write.delete.mode = merge-on-read`: %s deletion"
                + " vectors, %,d live rows. Both engines run in one JVM, each with its defaults and"
                + " target-file-size-bytes = %s; each first compacts the table %d times unmeasured"
                + " (rolled back after each), so that both are measured warm. Then, %d times,"
                + " LakeOps compacts, the table is rolled back to the snapshot before, Spark"
                + " compacts the same state and the table is rolled back again; each engine's"
                + " figures below are those of its median run by wall time. Before each measured"
                + " phase the JVM is left to settle: a"
                + " collection, then until it uses under a tenth of a processor over half a second"
                + " (its compilers and Spark's cleaners done with what came before; at most %d s).\n\n",
            LocalDate.now(ZoneOffset.UTC),
            RepositoryRevision.describe(),
            Runtime.getRuntime().availableProcessors(),
            ProcessMemory.loadAverage(),
            summary.get("total-data-files"),
            mib(Long.parseLong(summary.get("total-files-size"))),
            DeletesSideBySide.DELETE_PREDICATES.stream()
                .map(predicate -> "`DELETE FROM ... WHERE " + predicate + "`")
                .collect(Collectors.joining(" and ")),
            summary.getOrDefault("total-delete-files", "0"),
            before.rows(),
            mib(SideBySideBenchmark.TARGET_FILE_SIZE_BYTES),
            WARM_UP_RUNS,
            MEASURED_RUNS,
            LONGEST_SETTLE.toSeconds()));
    CompactionResult result = lakeops.result();
    text.append("| | LakeOps (`TableCompactor`, decode-free) | Spark `rewrite_data_files` |\n");
    text.append("|---|---|---|\n");
    row(
        text,
        "wall time (median run)",
        seconds(lakeops.times().wall()),
        seconds(spark.times().wall()));
    row(
        text,
        "wall time of each measured run",
        walls(lakeopsRuns, LakeOpsPhase::times),
        walls(sparkRuns, Phase::times));
    row(text, "user CPU", seconds(lakeops.times().user()), seconds(spark.times().user()));
    row(text, "system CPU", seconds(lakeops.times().system()), seconds(spark.times().system()));
    row(text, "machine load average at the phase's start", lakeops.load(), spark.load());
    row(
        text,
        "input bytes copied decode-free / decoded",
        mib(result.copiedBytes())
            + " / "
            + mib(result.decodedBytes())
            + format(" (%.1f %% decode-free)", 100.0 * result.copiedBytes() / result.inputBytes()),
        "n/a (decodes everything)");
    row(text, "fallback reasons", result.fallbackReasons().toString(), "n/a");
    row(text, "data files after (bytes)", lakeopsFiles.toString(), sparkFiles.toString());
    row(
        text,
        "live rows, row checksum, lineage checksum as before (every run)",
        String.valueOf(afterLakeOps.equals(before)),
        String.valueOf(afterSpark.equals(before)));
    text.append("\n");
    text.append(
        format(
            "Spark's time over LakeOps': %.2f× wall, %.2f× CPU (user + system).\n\n",
            ratio(spark.times().wall(), lakeops.times().wall()),
            ratio(
                spark.times().user().plus(spark.times().system()),
                lakeops.times().user().plus(lakeops.times().system()))));
    text.append(
        format(
            "Lineage checksum: the sum of xxhash64(event_id, _row_id,"
                + " _last_updated_sequence_number) over the live rows, read by Spark (before: %s;"
                + " rows with a null _row_id: %d). Row checksum: the sum of xxhash64 over all"
                + " columns. CPU times are the whole process's (`/proc/self/stat`) over each"
                + " phase.\n\n",
            before.lineage(), before.nullRowIds()));
    text.append(
        "Reproduce: `"
            + ReportFiles.MAVEN_COMMAND
            + " -Dlakeops.benchmark.lineage="
            + size.label()
            + " -Dbenchmark.workDirectory=/work/bench-data`\n");
    return text.toString();
  }

  /** The run whose wall time is the median of {@code runs} (an odd number of them). */
  private static <T> T median(List<T> runs, Function<T, CpuTimes> times) {
    List<T> byWall = new ArrayList<>(runs);
    byWall.sort(Comparator.comparing(run -> times.apply(run).wall()));
    return byWall.get(byWall.size() / 2);
  }

  private static <T> String walls(List<T> runs, Function<T, CpuTimes> times) {
    return runs.stream()
        .map(run -> seconds(times.apply(run).wall()))
        .collect(Collectors.joining(", "));
  }

  private static double ratio(Duration numerator, Duration denominator) {
    return (double) numerator.toNanos() / Math.max(1, denominator.toNanos());
  }

  private static void row(StringBuilder text, String label, String lakeops, String spark) {
    text.append("| ").append(label).append(" | ").append(lakeops).append(" | ");
    text.append(spark).append(" |\n");
  }

  /** One phase: its times and the load at its start. */
  private record Phase(CpuTimes times, String load) {}

  /** LakeOps' phase, with its result. */
  private record LakeOpsPhase(CpuTimes times, String load, CompactionResult result) {}

  /** What must not change: live rows, a checksum of their columns and one of their lineage. */
  private record Checksums(long rows, String data, String lineage, long nullRowIds) {
    static Checksums of(SparkSession spark) {
      Row row =
          spark
              .sql(
                  "SELECT count(*),"
                      + " sum(cast(xxhash64(event_id, user_id, country, event_type, amount, ts,"
                      + " day, payload) AS DECIMAL(38, 0))),"
                      + " sum(cast(xxhash64(event_id, _row_id, _last_updated_sequence_number)"
                      + " AS DECIMAL(38, 0))),"
                      + " count_if(_row_id IS NULL OR _last_updated_sequence_number IS NULL)"
                      + " FROM "
                      + TABLE)
              .first();
      return new Checksums(
          row.getLong(0), String.valueOf(row.get(1)), String.valueOf(row.get(2)), row.getLong(3));
    }
  }

  /** Wall time and this process's user and system CPU time. */
  private record CpuTimes(Duration wall, Duration user, Duration system) {
    static CpuTimes now() {
      try {
        String stat = Files.readString(PROCESS_STAT);
        // the fields after the command name in parentheses, which may hold spaces
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return new CpuTimes(
            Duration.ofNanos(System.nanoTime()),
            ticks(Long.parseLong(fields[11])),
            ticks(Long.parseLong(fields[12])));
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read " + PROCESS_STAT, e);
      }
    }

    CpuTimes minus(CpuTimes start) {
      return new CpuTimes(
          wall.minus(start.wall), user.minus(start.user), system.minus(start.system));
    }

    private static Duration ticks(long ticks) {
      return Duration.ofMillis(ticks * 1000 / TICKS_PER_SECOND);
    }
  }
}
