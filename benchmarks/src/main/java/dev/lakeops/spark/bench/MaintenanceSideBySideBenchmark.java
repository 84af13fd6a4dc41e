package dev.lakeops.spark.bench;

import dev.lakeops.spark.bench.MaintenanceBenchmarkReport.EngineRun;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Expires snapshots and removes orphan files on two identical restorations of one snapshot-heavy
 * table, once with LakeOps (SnapshotExpirer, OrphanFileRemover) in a JVM limited to a 256 MB heap
 * and once with Spark's {@code expire_snapshots} and {@code remove_orphan_files} procedures in a
 * local[2] session in a JVM with a 2 GB heap (each a {@link MaintenancePhase}), and writes the
 * comparison to {@code docs/benchmarks/maintenance-<snapshots>.md}.
 *
 * <p>Arguments: {@code [snapshots] [files per commit] [work directory] [report directory]}; the
 * issue's figure is 2,000 snapshots and 20,000 files ({@code 2000 10}). Both engines get the same
 * requests: expire every snapshot older than the run's start while retaining the last 10, then
 * remove unreferenced files older than 3 days. Afterwards the files left under the table must be
 * the same for both engines.
 */
public final class MaintenanceSideBySideBenchmark {
  static final String LAKEOPS_HEAP = "-Xmx256m";
  private static final String SPARK_HEAP = "-Xmx2g";

  private MaintenanceSideBySideBenchmark() {}

  public static void main(String[] args) throws IOException {
    int snapshots = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
    int filesPerCommit = args.length > 1 ? Integer.parseInt(args[1]) : 10;
    Path work =
        Path.of(args.length > 2 ? args[2] : "target/benchmark")
            .toAbsolutePath()
            .resolve("maintenance-" + snapshots + "x" + filesPerCommit);
    Path reports = Path.of(args.length > 3 ? args[3] : "../docs/benchmarks").toAbsolutePath();
    String loadAtStart = ProcessMemory.loadAverage();

    SnapshotHeavyTable table = new SnapshotHeavyTable(work, snapshots, filesPerCommit, 1_000, 100);
    Duration build = table.buildIfMissing();
    log("table ready (built in %s) at %s", build, table.warehouse());

    table.restore();
    Instant expireBefore = Instant.now();
    Set<String> filesBefore = table.listFiles();
    EngineRun lakeops = runPhase("lakeops", LAKEOPS_HEAP, table, expireBefore);
    Set<String> lakeopsFiles = table.listFiles();

    table.restore();
    EngineRun spark = runPhase("spark", SPARK_HEAP, table, expireBefore);
    Set<String> sparkFiles = table.listFiles();

    MaintenanceBenchmarkReport report =
        new MaintenanceBenchmarkReport(
            snapshots,
            table.dataFilesWritten(),
            table.oldOrphans(),
            table.youngOrphans(),
            filesBefore.size(),
            lakeops,
            spark,
            lakeopsFiles.size(),
            sparkFiles.size(),
            lakeopsFiles.equals(sparkFiles),
            Runtime.getRuntime().availableProcessors(),
            LAKEOPS_HEAP,
            SPARK_HEAP,
            loadAtStart,
            ProcessMemory.loadAverage());
    ReportFiles.publish(
        reports,
        "maintenance-" + snapshots + ".md",
        report.markdown(),
        report.sameFilesLeft(),
        "The engines left different files behind");
  }

  /** Runs one engine's phase in a JVM of its own with the given heap and reads its result line. */
  private static EngineRun runPhase(
      String engine, String heap, SnapshotHeavyTable table, Instant expireBefore)
      throws IOException {
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse("java"));
    command.add(heap);
    ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .filter(argument -> !argument.startsWith("-Xmx") && !argument.startsWith("-Xms"))
        .forEach(command::add);
    command.addAll(
        List.of(
            "-cp",
            System.getProperty("java.class.path"),
            MaintenancePhase.class.getName(),
            engine,
            table.warehouse().toString(),
            String.valueOf(expireBefore.toEpochMilli())));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String result = null;
    try (BufferedReader output =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = output.readLine(); line != null; line = output.readLine()) {
        if (line.startsWith(MaintenancePhase.RESULT_PREFIX)) {
          result = line;
        }
        System.out.println("  " + engine + " | " + line);
      }
    }
    try {
      int exit = process.waitFor();
      if (exit != 0 || result == null) {
        throw new IllegalStateException(
            engine + " phase failed with exit code " + exit + ": see its output above");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while waiting for the " + engine + " phase", e);
    }
    return MaintenancePhase.parse(result);
  }

  static void log(String format, Object... args) {
    System.out.printf("[benchmark] " + format + "%n", args);
  }
}
