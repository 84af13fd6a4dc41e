package dev.lakeops.spark.bench;

import dev.lakeops.spark.bench.SideBySideBenchmark.TableState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;

/**
 * Binpack on object storage side by side: an S3 API server in this JVM ({@link ObjectStoreServer},
 * s3proxy over a folder, with s3proxy's latency middleware), a table written by Spark's Iceberg
 * writer through {@code S3FileIO} into a JDBC catalog on SQLite, partitioned and not, and for each
 * shape and latency two identical copies: one compacted by Spark's {@code CALL rewrite_data_files}
 * ({@code local[2]}, a JVM of its own), one by {@code bin/lakeops compact} as a user runs it.
 * Requests are counted on the server. Writes {@code docs/benchmarks/object-storage-binpack.md}
 * (200mb; other sizes {@code object-storage-binpack-<size>.md}).
 *
 * <p>Arguments: {@code [size] [work directory] [report directory]}; system properties {@code
 * lakeops.benchmark.objectstore.latencies} (milliseconds, default {@code 20,50}), {@code
 * lakeops.benchmark.objectstore.shapes} (default {@code partitioned,unpartitioned}) and {@code
 * lakeops.benchmark.objectstore.sparkHeap} (default {@code 4g}).
 */
public final class ObjectStoreBenchmark {
  static final String BUCKET = "lake";
  private static final String PROPERTY = "lakeops.benchmark.objectstore";

  private ObjectStoreBenchmark() {}

  public static void main(String[] args) throws Exception {
    BenchmarkSize size = BenchmarkSize.parse(args.length > 0 ? args[0] : "tiny");
    Path work = Path.of(args.length > 1 ? args[1] : "target/benchmark").toAbsolutePath();
    Path reports = Path.of(args.length > 2 ? args[2] : "../docs/benchmarks").toAbsolutePath();
    List<Duration> latencies = latencies(System.getProperty(PROPERTY + ".latencies", "20,50"));
    List<ObjectStoreShape> shapes =
        ObjectStoreShape.parseList(
            System.getProperty(PROPERTY + ".shapes", "partitioned,unpartitioned"));
    String sparkHeap = System.getProperty(PROPERTY + ".sparkHeap", "4g");
    // LakeOps alone, this many times, no report: for profiling (LAKEOPS_JAVA_OPTS reaches it)
    int lakeopsOnlyRuns = Integer.getInteger(PROPERTY + ".lakeopsOnly", 0);
    String loadAtStart = ProcessMemory.loadAverage();
    Path run = work.resolve(size.label()).resolve("objectstore");
    Path catalogs = run.resolve("catalogs");
    Path blobs = run.resolve("blobs");
    Files.createDirectories(catalogs);
    // builds the command line and its class-data sharing archive if missing, outside any timing
    LauncherPhase.prepare();
    List<ObjectStoreReport.Comparison> comparisons = new ArrayList<>();
    try (ObjectStoreServer server = ObjectStoreServer.start(blobs, BUCKET)) {
      SideBySideBenchmark.log("S3 server at %s over %s", server.endpoint(), blobs);
      ObjectStorePhaseRunner runner = new ObjectStorePhaseRunner(server, sparkHeap);
      for (ObjectStoreShape shape : shapes) {
        ObjectStoreCatalog sourceCatalog =
            ObjectStoreCatalog.of(server, catalogs, "source-" + shape.label());
        Catalog sourceConnected = sourceCatalog.connect();
        try {
          Table source =
              ObjectStoreSourceTable.writeOrReuse(sourceCatalog, sourceConnected, size, shape);
          TableState before = TableState.of(source);
          SideBySideBenchmark.log("%s source: %s", shape.label(), before);
          ObjectStoreWarmUp.readAll(source);
          ObjectStoreWarmUp.writeAndDelete(
              source.io(), "s3://lake/warm-up-" + shape.label(), before.bytes());
          SideBySideBenchmark.log(
              "%s source read twice and as many bytes written twice to warm the S3 server up",
              shape.label());
          for (Duration latency : latencies) {
            if (lakeopsOnlyRuns > 0) {
              runLakeOpsOnly(
                  server, runner, source, shape, latency, run, catalogs, blobs, lakeopsOnlyRuns);
              continue;
            }
            comparisons.add(
                compare(server, runner, source, before, shape, latency, run, catalogs, blobs));
          }
        } finally {
          ObjectStoreCatalog.close(sourceConnected);
        }
      }
    }
    if (lakeopsOnlyRuns > 0) {
      return;
    }
    ObjectStoreReport report =
        new ObjectStoreReport(
            size,
            comparisons,
            RepositoryRevision.describe(),
            loadAtStart,
            ProcessMemory.loadAverage(),
            command(size, latencies, shapes));
    String name =
        size == BenchmarkSize.SMALL
            ? "object-storage-binpack.md"
            : "object-storage-binpack-" + size.label() + ".md";
    ReportFiles.publish(
        reports,
        name,
        report.markdown(),
        report.fingerprintsMatch(),
        "Row fingerprints differ after compaction");
    List<String> failures = report.failures();
    if (!failures.isEmpty()) {
      throw new IllegalStateException(
          String.join("; ", failures) + ": see " + reports.resolve(name));
    }
  }

  private static ObjectStoreReport.Comparison compare(
      ObjectStoreServer server,
      ObjectStorePhaseRunner runner,
      Table source,
      TableState before,
      ObjectStoreShape shape,
      Duration latency,
      Path run,
      Path catalogs,
      Path blobs)
      throws Exception {
    String prefix = shape.label() + "-" + latency.toMillis() + "ms-";
    ObjectStoreCatalog lakeopsCatalog =
        freshCopy(server, source, catalogs, blobs, prefix + "lakeops");
    ObjectStoreCatalog sparkCatalog = freshCopy(server, source, catalogs, blobs, prefix + "spark");
    SideBySideBenchmark.log("%s at %d ms: copies made", shape.label(), latency.toMillis());
    ObjectStorePhase lakeops =
        runner.lakeops(lakeopsCatalog, run.resolve("phases").resolve(prefix + "lakeops"), latency);
    SideBySideBenchmark.log("%s at %d ms: %s", shape.label(), latency.toMillis(), lakeops);
    ObjectStorePhase spark =
        runner.spark(sparkCatalog, run.resolve("phases").resolve(prefix + "spark"), latency);
    SideBySideBenchmark.log("%s at %d ms: %s", shape.label(), latency.toMillis(), spark);
    // the copies are measured: free their space for the next ones
    removeCopy(catalogs, blobs, prefix + "lakeops");
    removeCopy(catalogs, blobs, prefix + "spark");
    return new ObjectStoreReport.Comparison(shape, latency, before, spark, lakeops);
  }

  private static void runLakeOpsOnly(
      ObjectStoreServer server,
      ObjectStorePhaseRunner runner,
      Table source,
      ObjectStoreShape shape,
      Duration latency,
      Path run,
      Path catalogs,
      Path blobs,
      int runs)
      throws Exception {
    for (int attempt = 1; attempt <= runs; attempt++) {
      String name = shape.label() + "-" + latency.toMillis() + "ms-lakeops-only-" + attempt;
      ObjectStoreCatalog catalog = freshCopy(server, source, catalogs, blobs, name);
      ObjectStorePhase lakeops =
          runner.lakeops(catalog, run.resolve("phases").resolve(name), latency);
      SideBySideBenchmark.log(
          "%s at %d ms, run %d: %s", shape.label(), latency.toMillis(), attempt, lakeops);
      removeCopy(catalogs, blobs, name);
    }
  }

  /** A new catalog {@code name} holding a copy of {@code source}, whatever an earlier run left. */
  private static ObjectStoreCatalog freshCopy(
      ObjectStoreServer server, Table source, Path catalogs, Path blobs, String name) {
    removeCopy(catalogs, blobs, name);
    ObjectStoreCatalog catalog = ObjectStoreCatalog.of(server, catalogs, name);
    Catalog connected = catalog.connect();
    try {
      ObjectStoreTableCopies.copy(source, connected, server);
    } finally {
      ObjectStoreCatalog.close(connected);
    }
    return catalog;
  }

  private static void removeCopy(Path catalogs, Path blobs, String name) {
    SideBySideBenchmark.deleteRecursively(catalogs.resolve(name + ".db"));
    SideBySideBenchmark.deleteRecursively(blobs.resolve(BUCKET).resolve(name));
  }

  private static List<Duration> latencies(String text) {
    List<Duration> latencies = new ArrayList<>();
    for (String part : text.split(",")) {
      String trimmed = part.trim();
      if (trimmed.isEmpty()) {
        continue;
      }
      try {
        long milliseconds = Long.parseLong(trimmed);
        if (milliseconds < 0) {
          throw new NumberFormatException();
        }
        latencies.add(Duration.ofMillis(milliseconds));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "Latency '"
                + trimmed
                + "' in -D"
                + PROPERTY
                + ".latencies is not a number of milliseconds: use e.g. 20,50");
      }
    }
    if (latencies.isEmpty()) {
      throw new IllegalArgumentException(
          "No latency in -D" + PROPERTY + ".latencies: use e.g. 20,50 (milliseconds)");
    }
    return latencies;
  }

  private static String command(
      BenchmarkSize size, List<Duration> latencies, List<ObjectStoreShape> shapes) {
    return ReportFiles.MAVEN_COMMAND
        + " -D"
        + PROPERTY
        + "="
        + size.label()
        + " -D"
        + PROPERTY
        + ".latencies="
        + latencies.stream()
            .map(latency -> String.valueOf(latency.toMillis()))
            .collect(Collectors.joining(","))
        + " -D"
        + PROPERTY
        + ".shapes="
        + shapes.stream().map(ObjectStoreShape::label).collect(Collectors.joining(","));
  }
}
