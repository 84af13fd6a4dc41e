package dev.lakeops.spark.bench;

import static dev.lakeops.spark.bench.ReportCells.format;
import static dev.lakeops.spark.bench.ReportCells.mib;
import static dev.lakeops.spark.bench.ReportCells.preciseSeconds;
import static dev.lakeops.spark.bench.ReportCells.row;
import static java.util.Objects.requireNonNull;

import dev.lakeops.spark.bench.SideBySideBenchmark.TableState;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;

/** The object-storage benchmark's Markdown report ({@link ObjectStoreBenchmark}). */
final class ObjectStoreReport {
  private final BenchmarkSize size;
  private final List<Comparison> comparisons;
  private final String revision;
  private final String loadAtStart;
  private final String loadAtEnd;
  private final String command;

  ObjectStoreReport(
      BenchmarkSize size,
      List<Comparison> comparisons,
      String revision,
      String loadAtStart,
      String loadAtEnd,
      String command) {
    this.size = requireNonNull(size, "size is null");
    this.comparisons = List.copyOf(comparisons);
    this.revision = requireNonNull(revision, "revision is null");
    this.loadAtStart = requireNonNull(loadAtStart, "loadAtStart is null");
    this.loadAtEnd = requireNonNull(loadAtEnd, "loadAtEnd is null");
    this.command = requireNonNull(command, "command is null");
  }

  /** Whether every phase that finished left its copy with the source's rows. */
  boolean fingerprintsMatch() {
    return comparisons.stream()
        .allMatch(
            comparison ->
                comparison.phases().stream()
                    .filter(ObjectStorePhase::succeeded)
                    .allMatch(phase -> rowsKept(comparison.before(), phase)));
  }

  /** One line per phase that failed, naming the engine, the table and the latency. */
  List<String> failures() {
    List<String> failures = new ArrayList<>();
    for (Comparison comparison : comparisons) {
      for (ObjectStorePhase phase : comparison.phases()) {
        phase
            .failure()
            .ifPresent(
                reason ->
                    failures.add(
                        phase.engine() + " failed on the " + comparison.title() + ": " + reason));
      }
    }
    return failures;
  }

  String markdown() {
    StringBuilder text = new StringBuilder();
    text.append("# Binpack on object storage: LakeOps vs Spark rewrite_data_files (")
        .append(size.label())
        .append(")\n\n");
    text.append(
        format(
            "Measured %s on commit %s, %d processors shared with other work (load average 1/5/15"
                + " min: %s at the start, %s at the end).\n\n",
            LocalDate.now(ZoneOffset.UTC),
            revision,
            Runtime.getRuntime().availableProcessors(),
            loadAtStart,
            loadAtEnd));
    text.append(setup());
    summary(text);
    for (Comparison comparison : comparisons) {
      details(text, comparison);
    }
    text.append(notes());
    text.append("Reproduce: `").append(command).append("`\n");
    return text.toString();
  }

  private String setup() {
    StringBuilder text = new StringBuilder();
    text.append(
        "The object store is s3proxy 4.1.0 (a real S3 API server) in the benchmark's JVM on"
            + " 127.0.0.1, its filesystem backend on local disk, behind s3proxy's latency middleware"
            + " (`LatencyBlobStore`, the latency on `*`: every request waits that long before it is"
            + " served). Tables live in a JDBC catalog on SQLite with `S3FileIO`. Spark's Iceberg"
            + " writer wrote each source table without latency, one `INSERT` of eight files per"
            + " commit; each engine then compacts its own copy (the same objects, copied on the"
            + " server, in one snapshot) with the latency on.\n\n");
    List<Comparison> firstOfEachShape = new ArrayList<>();
    for (Comparison comparison : comparisons) {
      if (firstOfEachShape.stream().noneMatch(seen -> seen.shape() == comparison.shape())) {
        firstOfEachShape.add(comparison);
      }
    }
    for (Comparison comparison : firstOfEachShape) {
      TableState before = comparison.before();
      text.append(
          format(
              "- %s table: %,d Parquet files, %s, %,d rows%s.\n",
              comparison.shape().label(),
              before.dataFiles(),
              mib(before.bytes()),
              before.fingerprint().rowCount(),
              comparison.shape().partitions() > 0
                  ? ", partitioned by day over " + comparison.shape().partitions() + " days"
                  : ", not partitioned"));
    }
    text.append("\n");
    return text.toString();
  }

  private void summary(StringBuilder text) {
    text.append(
        "| table | latency | Spark `CALL` | LakeOps whole process | Spark ÷ LakeOps | CPU Spark"
            + " (`CALL` / JVM) | CPU LakeOps | requests Spark / LakeOps | rows identical |\n");
    text.append("|---|---|---|---|---|---|---|---|---|\n");
    for (Comparison comparison : comparisons) {
      ObjectStorePhase spark = comparison.spark();
      ObjectStorePhase lakeops = comparison.lakeops();
      row(
          text,
          comparison.shape().label(),
          comparison.latency().toMillis() + " ms",
          outcomeOr(spark, preciseSeconds(spark.timed())),
          outcomeOr(lakeops, preciseSeconds(lakeops.timed())),
          ratio(comparison),
          preciseSeconds(spark.timedCpu()) + " / " + preciseSeconds(spark.processCpu()),
          preciseSeconds(lakeops.processCpu()),
          format("%,d / %,d", spark.requests().total(), lakeops.requests().total()),
          rowsCell(comparison.before(), spark) + " / " + rowsCell(comparison.before(), lakeops));
    }
    text.append("\n");
  }

  private void details(StringBuilder text, Comparison comparison) {
    text.append("## ").append(comparison.title()).append("\n\n");
    List<ObjectStorePhase> phases = comparison.phases();
    text.append("| | Spark `rewrite_data_files` (local[2]) | LakeOps (`bin/lakeops compact`) |\n");
    text.append("|---|---|---|\n");
    TableState before = comparison.before();
    line(
        text,
        phases,
        "outcome",
        phase -> phase.failure().map(reason -> "**failed**: " + reason).orElse("done"));
    line(
        text,
        phases,
        "wall time compared (Spark: the `CALL`; LakeOps: the whole process)",
        phase -> preciseSeconds(phase.timed()));
    line(
        text, phases, "whole process, JVM start to exit", phase -> preciseSeconds(phase.process()));
    line(
        text,
        phases,
        "of which Spark's session start (before the `CALL`)",
        phase -> phase.engine().equals("Spark") ? preciseSeconds(phase.sessionStart()) : "—");
    line(
        text,
        phases,
        "CPU time, user + system, of the part compared",
        phase -> preciseSeconds(phase.timedCpu()));
    line(
        text,
        phases,
        "CPU time, user + system, of the whole process",
        phase -> preciseSeconds(phase.processCpu()));
    line(text, phases, "peak RSS of the process", phase -> mib(phase.peakRssBytes()));
    line(text, phases, "machine load average at the phase's start", ObjectStorePhase::loadAtStart);
    line(
        text,
        phases,
        "data files before → after",
        phase ->
            before.dataFiles()
                + " → "
                + phase.after().map(after -> String.valueOf(after.dataFiles())).orElse("—"));
    line(
        text,
        phases,
        "bytes after",
        phase -> phase.after().map(after -> mib(after.bytes())).orElse("—"));
    line(
        text,
        phases,
        "row fingerprint (count / checksum) matches the source",
        phase -> phase.after().map(after -> ReportCells.fingerprint(before, after)).orElse("—"));
    requestLines(text, phases);
    text.append("\n");
    if (comparison.spark().succeeded() && comparison.lakeops().succeeded()) {
      text.append("**Ratio: Spark's `CALL` ÷ LakeOps' whole process = ")
          .append(ratio(comparison))
          .append("**\n\n");
    }
  }

  /** The server's request figures of each phase, and what the engines reported themselves. */
  private static void requestLines(StringBuilder text, List<ObjectStorePhase> phases) {
    for (RequestKind kind : RequestKind.values()) {
      line(
          text,
          phases,
          kind + " requests (server)",
          phase -> format("%,d", phase.requests().count(kind)));
    }
    line(
        text, phases, "requests in all (server)", phase -> format("%,d", phase.requests().total()));
    line(
        text,
        phases,
        "requests in flight: peak / time-weighted mean (server)",
        phase ->
            format("%d / %.1f", phase.requests().peakInFlight(), phase.requests().meanInFlight()));
    line(
        text,
        phases,
        "the engine's own figures",
        phase ->
            phase.engineFigures().isEmpty()
                ? "—"
                : phase.engineFigures().entrySet().stream()
                    .map(entry -> "`" + entry.getKey() + "` " + entry.getValue())
                    .collect(Collectors.joining(", ")));
  }

  private String notes() {
    return "Notes: Spark runs `CALL bench.system.rewrite_data_files(table => 'bench.db.events', options"
        + " => map(...))` with "
        + SparkRewritePhase.OPTIONS.entrySet().stream()
            .map(option -> "`" + option.getKey() + "` = " + option.getValue())
            .collect(Collectors.joining(", "))
        + ", in a `local[2]` session of a JVM of its own (heap as given by"
        + " `-Dlakeops.benchmark.objectstore.sparkHeap`, default 4 GB); its wall time is the `CALL`"
        + " alone, session already started (the session start includes a first `SELECT 1`), and its CPU time for the `CALL` is the JVM's (every"
        + " thread) over the `CALL`. LakeOps is `bin/lakeops compact db.events -C name=bench -C"
        + " type=jdbc -C uri=jdbc:sqlite:... -C io-impl=org.apache.iceberg.aws.s3.S3FileIO ..."
        + " --target-file-size 128MB --json` as a user runs it, timed from the launcher's start to"
        + " its exit (JVM start, catalog, lock, compaction, commit). Both get the same catalog and"
        + " `S3FileIO` properties, including `http-client.apache.max-connections` = 64 and"
        + " `s3.multipart.num-threads` = 8. CPU time and peak RSS of each process come from"
        + " `/usr/bin/time`. Requests are counted by the S3 server itself, from the phase's process"
        + " start to its exit, by S3 operation: GET object, PUT object or part, HEAD object or"
        + " bucket, LIST objects, DELETE object (a multi-object delete counts once), POST"
        + " (multipart start and completion); a GET is in flight until its body was sent. The mean"
        + " in flight is weighted by time between the phase's first request and its last. Before"
        + " each phase the harness runs `sync`; LakeOps runs before Spark at each latency. Before"
        + " the first phase of a table shape, the harness reads every data file of the source"
        + " table twice and writes as many bytes twice in multipart uploads (then deletes them),"
        + " latency off, so that the S3 server (in the benchmark's JVM) is warm for both engines'"
        + " reads and uploads. The"
        + " fingerprint is the row count and a checksum over all columns"
        + " (`dev.lakeops.verify.RowFingerprint`), read back without latency.\n\n";
  }

  private static void line(
      StringBuilder text,
      List<ObjectStorePhase> phases,
      String label,
      Function<ObjectStorePhase, String> cell) {
    row(text, label, phases.stream().map(cell).toArray(String[]::new));
  }

  private static String outcomeOr(ObjectStorePhase phase, String figure) {
    return phase.succeeded() ? figure : "**failed**";
  }

  private static String ratio(Comparison comparison) {
    if (!comparison.spark().succeeded() || !comparison.lakeops().succeeded()) {
      return "n/a";
    }
    return format(
        "%.2f×",
        comparison.spark().timed().toNanos() / (double) comparison.lakeops().timed().toNanos());
  }

  private static String rowsCell(TableState before, ObjectStorePhase phase) {
    if (!phase.succeeded()) {
      return "—";
    }
    return rowsKept(before, phase) ? "yes" : "**NO**";
  }

  private static boolean rowsKept(TableState before, ObjectStorePhase phase) {
    return phase.after().isPresent()
        && phase.after().orElseThrow().fingerprint().equals(before.fingerprint());
  }

  /** One table shape at one latency: the source's state and both engines' phases. */
  record Comparison(
      ObjectStoreShape shape,
      Duration latency,
      TableState before,
      ObjectStorePhase spark,
      ObjectStorePhase lakeops) {
    Comparison {
      requireNonNull(shape, "shape is null");
      requireNonNull(latency, "latency is null");
      requireNonNull(before, "before is null");
      requireNonNull(spark, "spark is null");
      requireNonNull(lakeops, "lakeops is null");
    }

    List<ObjectStorePhase> phases() {
      return List.of(spark, lakeops);
    }

    String title() {
      return shape.label() + " table at " + latency.toMillis() + " ms";
    }
  }
}
