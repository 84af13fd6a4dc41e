package dev.lakeops.spark.bench;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Spark's side of the object-storage benchmark, in a JVM of its own: starts a {@code local[2]}
 * session with the table's JDBC catalog and {@code S3FileIO} ({@link ObjectStoreCatalog}), then
 * runs {@code CALL bench.system.rewrite_data_files} with the options an operator sets for an object
 * store ({@link #OPTIONS}). Prints {@code [objectstore-phase] result session_nanos=N call_nanos=N
 * call_cpu_nanos=N} and the procedure's result row; the CPU time is this JVM's (all its threads)
 * during the {@code CALL}.
 *
 * <p>Arguments: {@code <catalog properties file>}.
 */
public final class SparkRewritePhase {
  static final String RESULT_PREFIX = "[objectstore-phase] result ";

  /**
   * The procedure's options: the benchmark's target file size; file groups rewritten eight at a
   * time, since on an object store a group mostly waits for requests and two cores can keep more
   * than two groups going; partial progress, so finished groups commit while others run, as
   * operators run large rewrites.
   */
  static final Map<String, String> OPTIONS = options();

  private SparkRewritePhase() {}

  public static void main(String[] args) {
    ObjectStoreCatalog catalog = ObjectStoreCatalog.read(Path.of(args[0]));
    OperatingSystemMXBean system = ManagementFactory.getPlatformMXBean(OperatingSystemMXBean.class);
    long sessionStarted = System.nanoTime();
    SparkSession spark =
        catalog
            .configure(BenchmarkSparkSessions.builder("lakeops-objectstore-benchmark"))
            .getOrCreate();
    // the parser and analyzer start with the first statement: no object store request
    spark.sql("SELECT 1").collectAsList();
    long sessionNanos = System.nanoTime() - sessionStarted;
    try {
      long cpuBefore = system.getProcessCpuTime();
      long started = System.nanoTime();
      Row result = spark.sql(call()).first();
      long callNanos = System.nanoTime() - started;
      long callCpuNanos = system.getProcessCpuTime() - cpuBefore;
      System.out.println("[objectstore-phase] spark: " + result);
      StringBuilder line =
          new StringBuilder(RESULT_PREFIX)
              .append("session_nanos=")
              .append(sessionNanos)
              .append(" call_nanos=")
              .append(callNanos)
              .append(" call_cpu_nanos=")
              .append(callCpuNanos);
      for (String field : result.schema().fieldNames()) {
        line.append(' ').append(field).append('=').append(result.getAs(field).toString());
      }
      System.out.println(line);
    } finally {
      spark.stop();
    }
    System.exit(0);
  }

  static String call() {
    return "CALL "
        + ObjectStoreCatalog.NAME
        + ".system.rewrite_data_files(table => '"
        + ObjectStoreCatalog.NAME
        + ".db.events', options => map("
        + OPTIONS.entrySet().stream()
            .map(option -> "'" + option.getKey() + "', '" + option.getValue() + "'")
            .collect(Collectors.joining(", "))
        + "))";
  }

  private static Map<String, String> options() {
    Map<String, String> options = new LinkedHashMap<>();
    options.put(
        "target-file-size-bytes", String.valueOf(SideBySideBenchmark.TARGET_FILE_SIZE_BYTES));
    options.put("max-concurrent-file-group-rewrites", "8");
    options.put("partial-progress.enabled", "true");
    options.put("partial-progress.max-commits", "10");
    return Collections.unmodifiableMap(options);
  }
}
