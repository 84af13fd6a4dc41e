package dev.lakeops.spark.bench;

import static java.util.Objects.requireNonNull;

import dev.lakeops.spark.bench.SideBySideBenchmark.TableState;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.iceberg.Table;

/**
 * The sort and z-order side-by-side benchmark: the same fragmented table compacted by LakeOps (512
 * MB heap unless {@code -Dlakeops.benchmark.lakeopsHeap} says otherwise, 256 MB budget) and by
 * Spark's {@code rewrite_data_files(strategy => 'sort')} twice, once with the benchmark's heap and
 * once with a 512 MB heap, each phase on its own copy of the table and in its own JVM ({@link
 * CompactionPhase}), one after another. Writes {@code docs/benchmarks/<strategy>-<size>.md}.
 */
final class SortSideBySide {
  static final String SMALL_HEAP = "512m";
  private static final Duration PHASE_TIMEOUT = Duration.ofHours(2);

  private SortSideBySide() {}

  static SourceComparison.Row run(
      BenchmarkSize size,
      BenchmarkSource sourceKind,
      Path run,
      Path reports,
      String strategy,
      String name)
      throws IOException, InterruptedException {
    Table source = SideBySideBenchmark.sourceTable(run, size, sourceKind);
    TableState before = TableState.of(source);
    SideBySideBenchmark.log("source: %s", before);
    String parentHeap = (Runtime.getRuntime().maxMemory() >> 20) + "m";
    String lakeopsHeap = System.getProperty("lakeops.benchmark.lakeopsHeap", SMALL_HEAP);
    // the LakeOps phase runs with the JVM options bin/lakeops starts its JVM with; Spark with its
    // own defaults
    List<String> launcherOptions = LauncherJvmConfig.compactionOptions();
    List<PhaseSpec> specs = new ArrayList<>();
    specs.add(
        new PhaseSpec(
            "lakeops",
            lakeopsHeap,
            launcherOptions,
            "LakeOps (`TableCompactor`, 256 MB budget, -Xmx"
                + lakeopsHeap
                + ", bin/jvm.config, parallel collector"
                + (LauncherJvmConfig.kernelOffersHugePages() ? ", huge pages)" : ")")));
    specs.add(
        new PhaseSpec(
            "spark",
            parentHeap,
            List.of(),
            "Spark `rewrite_data_files` (local[2], -Xmx" + parentHeap + ")"));
    if (Boolean.parseBoolean(System.getProperty("lakeops.benchmark.sparkSmallHeap", "true"))) {
      specs.add(
          new PhaseSpec(
              "spark",
              SMALL_HEAP,
              List.of(),
              "Spark `rewrite_data_files` (local[2], -Xmx" + SMALL_HEAP + ")"));
    }
    if (Boolean.getBoolean("lakeops.benchmark.sparkWithLauncherJvmConfig")) {
      specs.add(
          new PhaseSpec(
              "spark",
              parentHeap,
              launcherOptions,
              "Spark `rewrite_data_files` (local[2], -Xmx" + parentHeap + ", bin/jvm.config)"));
    }
    List<PhaseOutcome> outcomes = new ArrayList<>();
    for (int index = 0; index < specs.size(); index++) {
      outcomes.add(
          runPhase(source, run.resolve(strategy + "-" + index), specs.get(index), strategy));
    }
    SortBenchmarkReport report =
        new SortBenchmarkReport(
            size,
            sourceKind,
            strategy,
            before,
            ReportCells.columns(source.schema()),
            outcomes,
            Runtime.getRuntime().availableProcessors(),
            ProcessMemory.loadAverage());
    ReportFiles.publish(
        reports,
        name,
        report.markdown(),
        report.fingerprintsMatch(),
        "Row fingerprints differ after compaction");
    PhaseOutcome lakeops = outcomes.get(0);
    PhaseOutcome spark = outcomes.get(1);
    return new SourceComparison.Row(
        sourceKind,
        before,
        lakeops.succeeded() ? lakeops.wall() : Duration.ZERO,
        spark.succeeded() ? spark.wall() : Duration.ZERO,
        lakeops.peakRssBytes(),
        -1,
        -1,
        name);
  }

  static PhaseOutcome runPhase(Table source, Path directory, PhaseSpec spec, String strategy)
      throws IOException, InterruptedException {
    return runPhase(source, directory, spec, strategy, warehouse -> {});
  }

  /**
   * Copies {@code source} into a warehouse under {@code directory}, lets {@code prepare} change the
   * copy, then runs the phase.
   */
  static PhaseOutcome runPhase(
      Table source, Path directory, PhaseSpec spec, String strategy, Consumer<Path> prepare)
      throws IOException, InterruptedException {
    SideBySideBenchmark.deleteRecursively(directory);
    Path warehouse = directory.resolve("warehouse");
    Path spill = directory.resolve("spill");
    // keep the table as the phase gets it (prepared/: restore warehouse/ from it to run the phase
    // again by hand, the metadata holds absolute paths) and the phase's command line
    boolean keep = Boolean.getBoolean("lakeops.benchmark.keepWarehouses");
    TableCopies.copy(source, SideBySideBenchmark.catalog(warehouse), SideBySideBenchmark.TABLE);
    prepare.accept(warehouse);
    if (keep) {
      SideBySideBenchmark.copyTree(warehouse, directory.resolve("prepared"));
    }
    // what prepare wrote, and the kept copy, must not be written back during the phase, nor be
    // read from memory by it
    DirtyPages.flush();
    boolean pageCacheDropped = DirtyPages.dropPageCache();
    Path log = directory.resolve("phase.log");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx" + spec.heap());
    command.addAll(spec.jvmOptions());
    for (String argument : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (!argument.startsWith("-Xmx")
          && !argument.startsWith("-Xms")
          && !argument.startsWith("-agentlib")) {
        command.add(argument);
      }
    }
    command.addAll(
        List.of(
            "-cp",
            System.getProperty("java.class.path"),
            CompactionPhase.class.getName(),
            spec.engine(),
            strategy,
            warehouse.toString(),
            spill.toString()));
    if (keep) {
      Files.write(directory.resolve("command.txt"), command, StandardCharsets.UTF_8);
    }
    System.gc();
    String load = ProcessMemory.loadAverage();
    SideBySideBenchmark.log(
        "%s %s: starting (load %s), log in %s", strategy, spec.label(), load, log);
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    // every phase gets the malloc settings bin/lakeops compact exports
    LauncherJvmConfig.compactionEnvironment().forEach(builder.environment()::putIfAbsent);
    Process process = builder.start();
    long started = System.nanoTime();
    boolean finished = process.waitFor(PHASE_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
    if (!finished) {
      process.destroyForcibly().waitFor();
    }
    List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
    Optional<String> result =
        lines.stream().filter(line -> line.startsWith(CompactionPhase.RESULT_PREFIX)).findFirst();
    PhaseOutcome outcome;
    if (finished && process.exitValue() == 0 && result.isPresent()) {
      TableState after =
          TableState.of(
              SideBySideBenchmark.catalog(warehouse).loadTable(SideBySideBenchmark.TABLE));
      outcome = PhaseOutcome.succeeded(spec, result.get(), after, load, pageCacheDropped);
    } else {
      String failure =
          finished
              ? "exit code " + process.exitValue() + ": " + failureLine(lines)
              : "timed out after " + elapsed;
      outcome = PhaseOutcome.failed(spec, failure, elapsed, load, pageCacheDropped);
    }
    SideBySideBenchmark.log("%s %s: %s", strategy, spec.label(), outcome.summary());
    if (!keep) {
      SideBySideBenchmark.deleteRecursively(warehouse);
    }
    SideBySideBenchmark.deleteRecursively(spill);
    return outcome;
  }

  /** The line naming the failure: an OutOfMemoryError first, else the last exception mentioned. */
  private static String failureLine(List<String> lines) {
    return lines.stream()
        .filter(line -> line.contains("OutOfMemoryError"))
        .findFirst()
        .or(
            () ->
                lines.stream()
                    .filter(line -> line.contains("Exception") || line.contains("Error"))
                    .reduce((first, second) -> second))
        .map(String::trim)
        .orElse("no error message");
  }

  /**
   * One phase to run: engine, heap (as for -Xmx), further JVM options and how the report names it.
   */
  record PhaseSpec(String engine, String heap, List<String> jvmOptions, String label) {
    PhaseSpec {
      requireNonNull(engine, "engine is null");
      requireNonNull(heap, "heap is null");
      jvmOptions = List.copyOf(requireNonNull(jvmOptions, "jvmOptions is null"));
      requireNonNull(label, "label is null");
    }
  }

  /**
   * What one phase did; {@code after} is empty when it failed. {@code compactionCall} is the
   * compaction's own time where the phase's wall time is a whole process's ({@link LauncherPhase}).
   * The CPU times are the phase JVM's over the compaction call, -1 where the phase did not report
   * them; {@code peakBudgetBytes} is the LakeOps memory budget's peak, -1 for Spark; {@code
   * pageCacheDropped} whether the page cache was dropped before the phase started.
   */
  record PhaseOutcome(
      PhaseSpec spec,
      Duration wall,
      Duration sessionStart,
      long peakRssBytes,
      long spilledBytes,
      long spillFiles,
      long copiedBytes,
      long decodedBytes,
      long userCpuNanos,
      long systemCpuNanos,
      long peakBudgetBytes,
      Optional<Duration> compactionCall,
      Optional<String> failure,
      Optional<TableState> after,
      String loadAtStart,
      boolean pageCacheDropped) {
    static PhaseOutcome succeeded(
        PhaseSpec spec,
        String resultLine,
        TableState after,
        String load,
        boolean pageCacheDropped) {
      String[] fields =
          resultLine.substring(CompactionPhase.RESULT_PREFIX.length()).trim().split("\\s+");
      long compactionNanos = optionalField(fields, "compaction_nanos");
      return new PhaseOutcome(
          spec,
          Duration.ofNanos(field(fields, "wall_nanos")),
          Duration.ofNanos(field(fields, "session_nanos")),
          field(fields, "peak_rss_bytes"),
          field(fields, "spilled_bytes"),
          field(fields, "spill_files"),
          optionalField(fields, "copied_bytes"),
          optionalField(fields, "decoded_bytes"),
          optionalField(fields, "user_cpu_nanos"),
          optionalField(fields, "system_cpu_nanos"),
          optionalField(fields, "peak_budget_bytes"),
          compactionNanos < 0 ? Optional.empty() : Optional.of(Duration.ofNanos(compactionNanos)),
          Optional.empty(),
          Optional.of(after),
          load,
          pageCacheDropped);
    }

    static PhaseOutcome failed(
        PhaseSpec spec, String failure, Duration elapsed, String load, boolean pageCacheDropped) {
      return new PhaseOutcome(
          spec,
          elapsed,
          Duration.ZERO,
          -1,
          -1,
          -1,
          -1,
          -1,
          -1,
          -1,
          -1,
          Optional.empty(),
          Optional.of(failure),
          Optional.empty(),
          load,
          pageCacheDropped);
    }

    /** Whether the phase reported its CPU times. */
    boolean cpuKnown() {
      return userCpuNanos >= 0 && systemCpuNanos >= 0;
    }

    boolean succeeded() {
      return failure.isEmpty();
    }

    String summary() {
      return failure
          .map(reason -> "FAILED after " + wall + " (" + reason + ")")
          .orElseGet(
              () ->
                  "done in "
                      + wall
                      + ", peak RSS "
                      + (peakRssBytes >> 20)
                      + " MiB, "
                      + (cpuKnown()
                          ? String.format(
                              Locale.ROOT,
                              "CPU %.1f s user / %.1f s system, ",
                              userCpuNanos / 1e9,
                              systemCpuNanos / 1e9)
                          : "")
                      + after.orElseThrow());
    }

    private static long optionalField(String[] fields, String name) {
      for (String field : fields) {
        if (field.startsWith(name + "=")) {
          return Long.parseLong(field.substring(name.length() + 1));
        }
      }
      return -1;
    }

    private static long field(String[] fields, String name) {
      for (String field : fields) {
        if (field.startsWith(name + "=")) {
          return Long.parseLong(field.substring(name.length() + 1));
        }
      }
      throw new IllegalArgumentException(
          "No " + name + " in the phase result " + String.join(" ", fields));
    }
  }
}
