package dev.lakeops.spark.bench;

import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.compact.Strategy;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.unit.ByteSize;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.iceberg.Table;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * One sort or z-order compaction of one table copy, run in a JVM of its own so that its heap limit,
 * peak RSS and any {@code OutOfMemoryError} are its alone. The parent ({@link SortSideBySide})
 * starts it and reads the last line it prints: {@code [phase] result wall_nanos=N session_nanos=N
 * peak_rss_bytes=N spilled_bytes=N spill_files=N copied_bytes=N decoded_bytes=N user_cpu_nanos=N
 * system_cpu_nanos=N peak_budget_bytes=N}, where the wall time is the compaction call's, the
 * session time Spark's session start before it, the CPU times this JVM's (all threads, from {@code
 * /proc/self/stat}) over the compaction call alone, and the peak budget use the LakeOps memory
 * budget's peak allocation (-1 for Spark).
 *
 * <p>Arguments: {@code lakeops|lakeops-cli|spark sort|zorder|binpack <warehouse> <spill
 * directory>}; binpack runs with each engine's defaults and the benchmark's target file size.
 * {@code lakeops-cli} runs binpack through {@code bin/lakeops compact} ({@link LauncherPhase}).
 */
public final class CompactionPhase {
  static final String SORT_ORDER = "country ASC NULLS FIRST, ts DESC NULLS LAST";
  static final List<String> ZORDER_COLUMNS = List.of("user_id", "ts");
  static final ByteSize LAKEOPS_MEMORY = ByteSize.parse("256MB");
  static final String RESULT_PREFIX = "[phase] result ";

  private CompactionPhase() {}

  public static void main(String[] args) throws Exception {
    String engine = args[0].toLowerCase(Locale.ROOT);
    String strategy = args[1].toLowerCase(Locale.ROOT);
    Path warehouse = Path.of(args[2]);
    Path spill = Path.of(args[3]);
    if (!List.of("sort", "zorder", "binpack").contains(strategy)) {
      throw new IllegalArgumentException(
          "Unknown strategy '" + strategy + "': use sort, zorder or binpack");
    }
    if (engine.equals("lakeops-cli")) {
      if (!strategy.equals("binpack")) {
        throw new IllegalArgumentException("The lakeops-cli phase runs binpack only");
      }
      LauncherPhase.run(warehouse, spill);
      System.exit(0);
    }
    ProcessMemory.resetPeak();
    long[] spilled = {0, 0};
    long[] paths = {-1, -1};
    long[] nanos = {0, 0};
    ProcessCpu[] cpu = {new ProcessCpu(-1, -1)};
    long peakBudgetBytes = -1;
    switch (engine) {
      case "lakeops" -> {
        ProcessCpu cpuBefore = ProcessCpu.now();
        long started = System.nanoTime();
        CompactionResult result = runLakeOps(warehouse, spill, strategy);
        nanos[0] = System.nanoTime() - started;
        cpu[0] = ProcessCpu.now().since(cpuBefore);
        peakBudgetBytes = result.peakMemoryBytes();
        spilled[0] = result.spilledBytes();
        spilled[1] = result.spillFiles();
        paths[0] = result.copiedBytes();
        paths[1] = result.decodedBytes();
        System.out.println("[phase] lakeops: " + result);
      }
      case "spark" -> runSpark(warehouse, strategy, nanos, cpu);
      default ->
          throw new IllegalArgumentException(
              "Unknown engine '" + engine + "': use lakeops or spark");
    }
    System.out.println(
        RESULT_PREFIX
            + "wall_nanos="
            + nanos[0]
            + " session_nanos="
            + nanos[1]
            + " peak_rss_bytes="
            + ProcessMemory.peakResidentBytes()
            + " spilled_bytes="
            + spilled[0]
            + " spill_files="
            + spilled[1]
            + " copied_bytes="
            + paths[0]
            + " decoded_bytes="
            + paths[1]
            + " user_cpu_nanos="
            + cpu[0].userNanos()
            + " system_cpu_nanos="
            + cpu[0].systemNanos()
            + " peak_budget_bytes="
            + peakBudgetBytes);
    System.exit(0);
  }

  private static CompactionResult runLakeOps(Path warehouse, Path spill, String strategy) {
    Table table = SideBySideBenchmark.catalog(warehouse).loadTable(SideBySideBenchmark.TABLE);
    if (strategy.equals("binpack")) {
      // binpack with LakeOps' defaults, as a user runs it
      return new TableCompactor()
          .compact(
              table,
              CompactionRequest.builder()
                  .options(
                      Map.of(
                          "target-file-size-bytes",
                          String.valueOf(SideBySideBenchmark.TARGET_FILE_SIZE_BYTES)))
                  .memoryBudget(LAKEOPS_MEMORY)
                  .spillDirectory(spill)
                  .build());
    }
    CompactionRequest.Builder request =
        CompactionRequest.builder()
            .options(
                Map.of(
                    "target-file-size-bytes",
                    String.valueOf(SideBySideBenchmark.TARGET_FILE_SIZE_BYTES),
                    "rewrite-all",
                    "true"))
            .memoryBudget(LAKEOPS_MEMORY)
            .spillDirectory(spill);
    request =
        strategy.equals("sort")
            ? request.strategy(Strategy.SORT).sortOrder(SORT_ORDER)
            : request.strategy(Strategy.ZORDER).zorderColumns(ZORDER_COLUMNS);
    return new TableCompactor().compact(table, request.build());
  }

  /**
   * Runs Spark's procedure; {@code nanos} gets the call's wall time, then the session start's, and
   * {@code cpu} the JVM's CPU time over the call.
   */
  private static void runSpark(Path warehouse, String strategy, long[] nanos, ProcessCpu[] cpu) {
    long startedSession = System.nanoTime();
    SparkSession spark =
        BenchmarkSparkSessions.withHadoopCatalog(
                BenchmarkSparkSessions.builder("lakeops-benchmark-" + strategy), "bench", warehouse)
            .getOrCreate();
    nanos[1] = System.nanoTime() - startedSession;
    try {
      String sortOrder =
          strategy.equals("sort")
              ? SORT_ORDER
              : "zorder(" + String.join(", ", ZORDER_COLUMNS) + ")";
      String call =
          strategy.equals("binpack")
              ? "CALL bench.system.rewrite_data_files(table => 'bench.db.events', options => map("
                  + "'target-file-size-bytes', '"
                  + SideBySideBenchmark.TARGET_FILE_SIZE_BYTES
                  + "'))"
              : "CALL bench.system.rewrite_data_files(table => 'bench.db.events', strategy => 'sort',"
                  + " sort_order => '"
                  + sortOrder
                  + "', options => map("
                  + "'target-file-size-bytes', '"
                  + SideBySideBenchmark.TARGET_FILE_SIZE_BYTES
                  + "',"
                  + " 'rewrite-all', 'true'))";
      ProcessCpu cpuBefore = ProcessCpu.now();
      long started = System.nanoTime();
      List<Row> rows = spark.sql(call).collectAsList();
      nanos[0] = System.nanoTime() - started;
      cpu[0] = ProcessCpu.now().since(cpuBefore);
      rows.forEach(row -> System.out.println("[phase] spark: " + row));
    } finally {
      spark.stop();
    }
  }
}
