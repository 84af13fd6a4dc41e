package dev.lakeops.spark.bench;

import static dev.lakeops.spark.bench.ReportCells.fingerprint;
import static dev.lakeops.spark.bench.ReportCells.format;
import static dev.lakeops.spark.bench.ReportCells.mib;
import static dev.lakeops.spark.bench.ReportCells.seconds;
import static dev.lakeops.spark.bench.ReportCells.throughput;
import static java.util.Objects.requireNonNull;

import dev.lakeops.spark.bench.SideBySideBenchmark.TableState;
import dev.lakeops.spark.bench.SortSideBySide.PhaseOutcome;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The Markdown report of one sort or z-order side-by-side run: LakeOps first, then the Spark
 * phases.
 */
record SortBenchmarkReport(
    BenchmarkSize size,
    BenchmarkSource source,
    String strategy,
    TableState before,
    String columns,
    List<PhaseOutcome> phases,
    int processors,
    String loadAtEnd) {
  SortBenchmarkReport {
    requireNonNull(size, "size is null");
    requireNonNull(source, "source is null");
    requireNonNull(strategy, "strategy is null");
    requireNonNull(before, "before is null");
    requireNonNull(columns, "columns is null");
    phases = List.copyOf(phases);
    requireNonNull(loadAtEnd, "loadAtEnd is null");
    if (phases.size() < 2) {
      throw new IllegalArgumentException("A report compares LakeOps with at least one Spark phase");
    }
  }

  /** Whether every phase that finished left the rows identical to the source's. */
  boolean fingerprintsMatch() {
    return phases.stream()
        .filter(PhaseOutcome::succeeded)
        .allMatch(phase -> phase.after().orElseThrow().fingerprint().equals(before.fingerprint()));
  }

  String markdown() {
    boolean sort = strategy.equals("sort");
    String ordering =
        sort
            ? "sort order `" + CompactionPhase.SORT_ORDER + "`"
            : "z-order on `" + String.join(", ", CompactionPhase.ZORDER_COLUMNS) + "`";
    StringBuilder text = new StringBuilder();
    text.append("# ")
        .append(sort ? "Sort" : "Z-order")
        .append(" side by side: LakeOps vs Spark rewrite_data_files (")
        .append(size.label())
        .append(source == BenchmarkSource.GENERATOR ? "" : ", " + source.label() + "-written table")
        .append(")\n\n");
    text.append(
        format(
            "Measured %s on %d processors shared with other work (load average 1/5/15 min at the end: %s)."
                + " Source table: %,d Parquet files, %s, %,d rows, %s, written by %s (%s). Every phase compacts its own"
                + " byte-for-byte copy of the table in a JVM of its own, one phase at a time, with %s,"
                + " target-file-size-bytes = %s and rewrite-all = true. Spark: `CALL"
                + " system.rewrite_data_files(strategy => 'sort', sort_order => '%s', ...)`.\n\n",
            LocalDate.now(ZoneOffset.UTC),
            processors,
            loadAtEnd,
            before.dataFiles(),
            mib(before.bytes()),
            before.fingerprint().rowCount(),
            size.days() > 0 ? "partitioned by day over " + size.days() + " days" : "unpartitioned",
            source.description(),
            columns,
            ordering,
            mib(SideBySideBenchmark.TARGET_FILE_SIZE_BYTES),
            sort
                ? CompactionPhase.SORT_ORDER
                : "zorder(" + String.join(", ", CompactionPhase.ZORDER_COLUMNS) + ")"));
    text.append("|");
    phases.forEach(phase -> text.append(" | ").append(phase.spec().label()));
    text.append(" |\n|---");
    phases.forEach(phase -> text.append("|---"));
    text.append("|\n");
    row(
        text,
        "outcome",
        phase -> phase.failure().map(reason -> "**failed**: " + reason).orElse("done"));
    row(
        text,
        "wall time of the compaction",
        phase ->
            phase.succeeded()
                ? seconds(phase.wall())
                : "— (failed after " + seconds(phase.wall()) + " of JVM time)");
    row(
        text,
        "Spark session start (not in wall time)",
        phase ->
            phase.spec().engine().equals("spark") && phase.succeeded()
                ? seconds(phase.sessionStart())
                : "—");
    row(
        text,
        "throughput (input MiB/s)",
        phase ->
            phase.succeeded() ? format("%.1f", throughput(before.bytes(), phase.wall())) : "—");
    row(
        text,
        "user CPU time over the compaction",
        phase -> phase.cpuKnown() ? cpuSeconds(phase.userCpuNanos()) : "n/a");
    row(
        text,
        "system CPU time over the compaction",
        phase -> phase.cpuKnown() ? cpuSeconds(phase.systemCpuNanos()) : "n/a");
    row(text, "system share of CPU time (sys / (user + sys))", SortBenchmarkReport::systemShare);
    row(text, "peak RSS of the JVM (VmHWM)", phase -> mib(phase.peakRssBytes()));
    row(
        text,
        "peak budget use (LakeOps memory budget)",
        phase ->
            phase.spec().engine().equals("lakeops") && phase.peakBudgetBytes() >= 0
                ? mib(phase.peakBudgetBytes())
                : "n/a");
    row(text, "machine load average at the phase's start", PhaseOutcome::loadAtStart);
    row(
        text,
        "spilled (bytes / run files, × the input's bytes)",
        phase ->
            phase.spec().engine().equals("lakeops") && phase.succeeded()
                ? mib(phase.spilledBytes())
                    + " / "
                    + phase.spillFiles()
                    + format(
                        " (%.2f× the input)",
                        phase.spilledBytes() / (double) Math.max(1, before.bytes()))
                : "n/a");
    row(
        text,
        "page cache dropped before the phase",
        phase -> phase.pageCacheDropped() ? "yes" : "**no**");
    row(
        text,
        "data files before → after",
        phase ->
            before.dataFiles()
                + " → "
                + phase.after().map(after -> String.valueOf(after.dataFiles())).orElse("—"));
    row(text, "bytes after", phase -> phase.after().map(after -> mib(after.bytes())).orElse("—"));
    row(
        text,
        "row fingerprint (count / checksum) matches source",
        phase -> phase.after().map(after -> fingerprint(before, after)).orElse("—"));
    text.append("\n");
    PhaseOutcome lakeops = phases.get(0);
    PhaseOutcome spark = phases.get(1);
    if (lakeops.succeeded() && spark.succeeded()) {
      text.append(
          format(
              "**Ratio: Spark wall time / LakeOps wall time = %.2f×** (%s vs %s)\n\n",
              spark.wall().toNanos() / (double) Math.max(1, lakeops.wall().toNanos()),
              spark.spec().label(),
              lakeops.spec().label()));
    } else {
      text.append("**Ratio: n/a** (a phase failed, see above)\n\n");
    }
    List<PhaseOutcome> sparkWithLakeOpsOptions = sparkWithLakeOpsOptions();
    for (PhaseOutcome other : sparkWithLakeOpsOptions) {
      if (lakeops.succeeded() && other.succeeded()) {
        text.append(
            format(
                "Ratio against %s: %.2f×\n\n",
                other.spec().label(),
                other.wall().toNanos() / (double) Math.max(1, lakeops.wall().toNanos())));
      }
    }
    text.append(
        "Notes: wall time is the compaction call's alone (`TableCompactor.compact`, the `CALL`), measured"
            + " inside the phase JVM; JVM start and Spark's session start are left out. VmHWM is read by the phase JVM itself from"
            + " `/proc/self/status` just before it exits. CPU times are the phase JVM's, all its threads"
            + " (garbage collection and JIT included), read from `/proc/self/stat` (utime, stime) just"
            + " before and just after the compaction call; the system share is system / (user + system)."
            + " Peak budget use is the LakeOps memory budget's peak allocation"
            + " (`CompactionResult.peakMemoryBytes()`); Spark has no such budget. The spill ratio divides"
            + " the bytes spilled by the source table's bytes ("
            + mib(before.bytes())
            + ")."
            + pageCacheNote()
            + " The fingerprint is the row count and the sum of a"
            + " 64-bit hash of every row over all columns (`dev.lakeops.verify.RowFingerprint`). Spark's"
            + " local mode ends the JVM with exit code 52 when a task throws `OutOfMemoryError`. The LakeOps phase"
            + " starts its JVM with the options `bin/lakeops compact` uses (`bin/jvm.config` and the"
            + " collector and huge pages the launcher adds: "
            + String.join(" ", lakeops.spec().jvmOptions())
            + "); every phase runs with the environment the launcher exports ("
            + LauncherJvmConfig.compactionEnvironment().entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .map(entry -> entry.getKey() + "=" + entry.getValue())
                .collect(Collectors.joining(" "))
            + "); the Spark phases with Spark's defaults unless their column says otherwise"
            + " (`-Dlakeops.benchmark.sparkWithLauncherJvmConfig=true` adds a Spark phase with the same options).\n\n");
    text.append(
        "Reproduce: `"
            + ReportFiles.MAVEN_COMMAND
            + " -Dlakeops.benchmark="
            + size.label()
            + " -Dlakeops.benchmark.mode="
            + strategy
            + " -Dlakeops.benchmark.source="
            + source.label()
            + " -Dbenchmark.workDirectory=/work/bench-data"
            + (sparkWithLakeOpsOptions.isEmpty()
                ? ""
                : " -Dlakeops.benchmark.sparkWithLauncherJvmConfig=true")
            + "`\n");
    return text.toString();
  }

  /** The notes' sentence on the page cache: dropped before every phase, or which phases not. */
  private String pageCacheNote() {
    List<String> notDropped =
        phases.stream()
            .filter(phase -> !phase.pageCacheDropped())
            .map(phase -> phase.spec().label())
            .toList();
    if (notDropped.isEmpty()) {
      return " Before each phase the harness runs `sync` and then drops the page cache (writes 3 to"
          + " `/proc/sys/vm/drop_caches`), so every phase reads its table copy from disk.";
    }
    return " Before each phase the harness runs `sync`; **page cache not dropped** (writing"
        + " `/proc/sys/vm/drop_caches` failed) before "
        + (notDropped.size() == phases.size() ? "any phase" : String.join(", ", notDropped))
        + ", so a phase may read some of its copy from memory.";
  }

  private static String systemShare(PhaseOutcome phase) {
    if (!phase.cpuKnown()) {
      return "n/a";
    }
    long total = phase.userCpuNanos() + phase.systemCpuNanos();
    return total == 0 ? "n/a" : format("%.1f %%", 100.0 * phase.systemCpuNanos() / total);
  }

  private static String cpuSeconds(long nanos) {
    return format("%.1f s", nanos / 1e9);
  }

  /**
   * Spark phases started with the LakeOps phase's JVM options ({@code bin/jvm.config}): each gets a
   * ratio of its own.
   */
  private List<PhaseOutcome> sparkWithLakeOpsOptions() {
    List<String> lakeopsOptions = phases.get(0).spec().jvmOptions();
    return phases.stream()
        .filter(phase -> phase.spec().engine().equals("spark"))
        .filter(
            phase -> !lakeopsOptions.isEmpty() && phase.spec().jvmOptions().equals(lakeopsOptions))
        .toList();
  }

  private void row(StringBuilder text, String label, Function<PhaseOutcome, String> cell) {
    text.append("| ").append(label);
    phases.forEach(phase -> text.append(" | ").append(cell.apply(phase)));
    text.append(" |\n");
  }
}
