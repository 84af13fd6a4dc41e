package dev.lakeops.spark.bench;

import static dev.lakeops.spark.bench.ReportCells.fingerprint;
import static dev.lakeops.spark.bench.ReportCells.format;
import static dev.lakeops.spark.bench.ReportCells.mib;
import static dev.lakeops.spark.bench.ReportCells.seconds;
import static dev.lakeops.spark.bench.ReportCells.throughput;

import dev.lakeops.spark.bench.SideBySideBenchmark.TableState;
import dev.lakeops.spark.bench.SortSideBySide.PhaseOutcome;
import dev.lakeops.spark.bench.SortSideBySide.PhaseSpec;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.iceberg.Table;
import org.apache.spark.sql.SparkSession;

/**
 * Binpack of a table with position deletes, side by side: each phase's copy of the source table
 * gets the same Spark {@code DELETE}s (merge-on-read, so Spark writes position-delete files, one
 * per data file each touches), then three phases compact their copy: LakeOps as a user runs it
 * ({@code bin/lakeops compact}, whole process: {@link LauncherPhase}), LakeOps' {@code
 * TableCompactor} with its defaults in a JVM of its own, and Spark's {@code rewrite_data_files}.
 * With {@code -Dlakeops.benchmark.jfr=<file>} the {@code TableCompactor} phase records a JFR
 * profile into that file.
 */
final class DeletesSideBySide {
  /**
   * The {@code DELETE}s each copy gets, one commit each, as a job deleting now and then does. The
   * first hits rows of every data file (ids of every residue modulo the day count), so Spark writes
   * one file-scoped position-delete file per data file; the second hits four more rows of four
   * files already carrying deletes, and Spark replaces those files' delete files with ones holding
   * both (so the table keeps one delete file per data file).
   */
  static final List<String> DELETE_PREDICATES =
      List.of("event_id % 1000 IN (4, 5, 6, 7)", "event_id IN (0, 1, 2, 3)");

  private DeletesSideBySide() {}

  static SourceComparison.Row run(
      BenchmarkSize size, BenchmarkSource sourceKind, Path run, Path reports, String name)
      throws IOException, InterruptedException {
    Table source = SideBySideBenchmark.sourceTable(run, size, sourceKind);
    List<String> lakeopsOptions = new ArrayList<>(LauncherJvmConfig.compactionOptions());
    String jfr = System.getProperty("lakeops.benchmark.jfr", "");
    if (!jfr.isEmpty()) {
      lakeopsOptions.add("-XX:StartFlightRecording=filename=" + jfr + ",settings=profile");
    }
    String heap = System.getProperty("lakeops.benchmark.lakeopsHeap", SortSideBySide.SMALL_HEAP);
    String parentHeap = (Runtime.getRuntime().maxMemory() >> 20) + "m";
    LauncherPhase.prepare();
    List<PhaseSpec> specs =
        List.of(
            new PhaseSpec(
                "lakeops-cli",
                "256m",
                List.of(),
                "LakeOps (`bin/lakeops compact`, defaults, 256 MB budget; whole process, JVM start to"
                    + " exit)"),
            new PhaseSpec(
                "lakeops",
                heap,
                lakeopsOptions,
                "LakeOps (`TableCompactor`, defaults, 256 MB budget, -Xmx"
                    + heap
                    + ", bin/jvm.config)"),
            new PhaseSpec(
                "spark",
                parentHeap,
                List.of(),
                "Spark `rewrite_data_files` (local[2], -Xmx" + parentHeap + ")"));
    AtomicReference<TableState> before = new AtomicReference<>();
    AtomicInteger copy = new AtomicInteger();
    List<PhaseOutcome> outcomes = new ArrayList<>();
    SparkSession spark =
        BenchmarkSparkSessions.builder("lakeops-benchmark-deletes")
            .config("spark.sql.session.timeZone", "UTC")
            .getOrCreate();
    try {
      for (int index = 0; index < specs.size(); index++) {
        outcomes.add(
            SortSideBySide.runPhase(
                source,
                run.resolve("deletes-" + index),
                specs.get(index),
                "binpack",
                warehouse -> {
                  applyDeletes(spark, "prep" + copy.getAndIncrement(), warehouse);
                  if (before.get() == null) {
                    before.set(
                        TableState.of(
                            SideBySideBenchmark.catalog(warehouse)
                                .loadTable(SideBySideBenchmark.TABLE)));
                    SideBySideBenchmark.log("with deletes: %s", before.get());
                  }
                }));
      }
    } finally {
      spark.stop();
    }
    String text = markdown(size, sourceKind, before.get(), outcomes, jfr);
    boolean rowsKept =
        outcomes.stream()
            .filter(PhaseOutcome::succeeded)
            .allMatch(
                phase ->
                    phase.after().orElseThrow().fingerprint().equals(before.get().fingerprint()));
    ReportFiles.publish(reports, name, text, rowsKept, "Row fingerprints differ after compaction");
    PhaseOutcome lakeops = outcomes.get(0);
    PhaseOutcome sparkPhase = outcomes.get(outcomes.size() - 1);
    return new SourceComparison.Row(
        sourceKind,
        before.get(),
        lakeops.succeeded() ? lakeops.wall() : Duration.ZERO,
        sparkPhase.succeeded() ? sparkPhase.wall() : Duration.ZERO,
        lakeops.peakRssBytes(),
        lakeops.copiedBytes(),
        lakeops.decodedBytes(),
        name);
  }

  /**
   * Runs the benchmark's {@code DELETE} on the table in {@code warehouse}, through a catalog named
   * {@code catalog}.
   */
  private static void applyDeletes(SparkSession spark, String catalog, Path warehouse) {
    spark.conf().set("spark.sql.catalog." + catalog, "org.apache.iceberg.spark.SparkCatalog");
    spark.conf().set("spark.sql.catalog." + catalog + ".type", "hadoop");
    spark.conf().set("spark.sql.catalog." + catalog + ".warehouse", warehouse.toString());
    String table = catalog + ".db.events";
    spark.sql(
        "ALTER TABLE " + table + " SET TBLPROPERTIES ('write.delete.mode' = 'merge-on-read')");
    DELETE_PREDICATES.forEach(
        predicate -> spark.sql("DELETE FROM " + table + " WHERE " + predicate));
  }

  private static String markdown(
      BenchmarkSize size,
      BenchmarkSource source,
      TableState before,
      List<PhaseOutcome> phases,
      String jfr) {
    StringBuilder text = new StringBuilder();
    text.append(
            "# Binpack with position deletes side by side: LakeOps vs Spark rewrite_data_files (")
        .append(size.label())
        .append(source == BenchmarkSource.GENERATOR ? "" : ", " + source.label() + "-written table")
        .append(")\n\n");
    text.append(
        format(
            "Measured %s on %d processors shared with other work (load average 1/5/15 min at the end: %s)."
                + " Source table: %,d Parquet data files, %s, written by %s, then %s"
                + " by Spark with `write.delete.mode = merge-on-read`: %,d position-delete files, %,d live rows."
                + " Each phase compacts its own copy (the same files, the same DELETE) in a JVM of its own, with"
                + " each engine's defaults and target-file-size-bytes = %s.\n\n",
            LocalDate.now(ZoneOffset.UTC),
            Runtime.getRuntime().availableProcessors(),
            ProcessMemory.loadAverage(),
            before.dataFiles(),
            mib(before.bytes()),
            source.description(),
            DELETE_PREDICATES.stream()
                .map(predicate -> "`DELETE FROM ... WHERE " + predicate + "`")
                .collect(Collectors.joining(" and ")),
            before.deleteFiles(),
            before.fingerprint().rowCount(),
            mib(SideBySideBenchmark.TARGET_FILE_SIZE_BYTES)));
    text.append("|");
    phases.forEach(phase -> text.append(" | ").append(phase.spec().label()));
    text.append(" |\n|---");
    phases.forEach(phase -> text.append("|---"));
    text.append("|\n");
    row(
        text,
        phases,
        "outcome",
        phase -> phase.failure().map(reason -> "**failed**: " + reason).orElse("done"));
    row(text, phases, "wall time of the compaction", phase -> seconds(phase.wall()));
    row(
        text,
        phases,
        "of which the compaction alone (`bin/lakeops`: its JSON `seconds`)",
        phase -> phase.compactionCall().map(ReportCells::seconds).orElse("—"));
    row(
        text,
        phases,
        "throughput (input MiB/s)",
        phase -> format("%.1f", throughput(before.bytes(), phase.wall())));
    row(text, phases, "peak RSS of the JVM (VmHWM)", phase -> mib(phase.peakRssBytes()));
    row(text, phases, "machine load average at the phase's start", PhaseOutcome::loadAtStart);
    row(
        text,
        phases,
        "input bytes copied decode-free / decoded",
        phase ->
            phase.copiedBytes() < 0
                ? "n/a (decodes everything)"
                : mib(phase.copiedBytes()) + " / " + mib(phase.decodedBytes()));
    row(
        text,
        phases,
        "data files before → after",
        phase ->
            before.dataFiles()
                + " → "
                + phase.after().map(after -> String.valueOf(after.dataFiles())).orElse("—"));
    row(
        text,
        phases,
        "delete files before → after",
        phase ->
            before.deleteFiles()
                + " → "
                + phase.after().map(after -> String.valueOf(after.deleteFiles())).orElse("—"));
    row(
        text,
        phases,
        "row fingerprint (count / checksum) matches the table with deletes",
        phase -> phase.after().map(after -> fingerprint(before, after)).orElse("—"));
    text.append("\n");
    PhaseOutcome lakeops = phases.get(0);
    PhaseOutcome spark = phases.get(phases.size() - 1);
    if (lakeops.succeeded() && spark.succeeded()) {
      text.append(
          format(
              "**Ratio: Spark wall time / LakeOps wall time = %.2f×** (Spark's `CALL` alone against"
                  + " the whole `bin/lakeops compact` process)\n\n",
              spark.wall().toNanos() / (double) lakeops.wall().toNanos()));
      lakeops
          .compactionCall()
          .ifPresent(
              call ->
                  text.append(
                      format(
                          "Compaction against compaction (Spark's `CALL` against the compaction inside"
                              + " `bin/lakeops compact`, JVM start, catalog and table lock left out on"
                              + " both sides): %.2f×\n\n",
                          spark.wall().toNanos() / (double) call.toNanos())));
    }
    text.append(
        "Notes: the first column is what a user runs: `bin/lakeops compact db.events --warehouse ..."
            + " --target-file-size 128MB --json`, timed from the launcher's start to its exit (JVM start,"
            + " catalog, table lock, run ledger and commit included), its peak RSS by `/usr/bin/time`. The"
            + " launcher picks its JVM as it does for any user (bin/jvm.config, the class-data sharing"
            + " archive, and the quick-start JVM for tables up to 256 MB: docs/jvm.md). The other columns"
            + " time the compaction call alone, inside a JVM of its own (`TableCompactor.compact` on the"
            + " benchmark's class path with bin/jvm.config, and Spark's `CALL`). The fingerprint is"
            + " the row count and a checksum over all columns of the live rows (deletes applied)."
            + (phases.stream().allMatch(PhaseOutcome::pageCacheDropped)
                ? " Before each phase the harness runs `sync` and drops the page cache (writes 3 to"
                    + " `/proc/sys/vm/drop_caches`)."
                : " Before each phase the harness runs `sync`; **page cache not dropped** before"
                    + " every phase (writing `/proc/sys/vm/drop_caches` failed).")
            + "\n\n");
    text.append(
        "Reproduce: `"
            + ReportFiles.MAVEN_COMMAND
            + " -Dlakeops.benchmark="
            + size.label()
            + " -Dlakeops.benchmark.mode=deletes -Dlakeops.benchmark.source="
            + source.label()
            + " -Dbenchmark.workDirectory=/work/bench-data"
            + (jfr.isEmpty() ? "" : " -Dlakeops.benchmark.jfr=<file>")
            + "`\n");
    return text.toString();
  }

  private static void row(
      StringBuilder text,
      List<PhaseOutcome> phases,
      String label,
      Function<PhaseOutcome, String> cell) {
    text.append("| ").append(label);
    phases.forEach(phase -> text.append(" | ").append(cell.apply(phase)));
    text.append(" |\n");
  }
}
