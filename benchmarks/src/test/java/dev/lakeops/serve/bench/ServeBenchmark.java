package dev.lakeops.serve.bench;

import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.ledger.JdbcRunLedger;
import dev.lakeops.ledger.RunLedger;
import dev.lakeops.ledger.RunQuery;
import dev.lakeops.ledger.RunRecord;
import dev.lakeops.ledger.RunStatus;
import dev.lakeops.telemetry.store.StoreLocation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lakeops serve} against a cron-style baseline ({@code lakeops compact} on every table every
 * minute) on the same simulated lake of 24 tables, one phase after the other, each on a fresh lake
 * in a PostgreSQL JDBC catalog (serve runs in its own JVM, as {@code bin/lakeops serve} does). Not
 * a test: runs only with {@code -Dlakeops.benchmark.serve=DURATION} (per phase, e.g. 8m):
 *
 * <pre>
 * mvn -B -q -pl benchmarks -am test -Dtest=ServeBenchmark -Dsurefire.failIfNoSpecifiedTests=false -Dlakeops.benchmark.serve=8m
 * </pre>
 *
 * Writes docs/benchmarks/serve-vs-cron.md.
 */
@EnabledIfSystemProperty(named = "lakeops.benchmark.serve", matches = ".+")
class ServeBenchmark {
  private static final Duration CRON_INTERVAL = Duration.ofMinutes(1);
  static final String POLICY =
      """
      catalog:
        poll-interval: 5s
        max-poll-interval: 30s
        max-concurrent-tables: 2
        memory: 256MB
        compact:
          min-small-files: 8
          min-interval: 1m
      """;

  @TempDir Path work;

  /** One phase's figures. */
  record PhaseResult(
      String name,
      long healthySamples,
      long samples,
      Map<String, String> unhealthyByKind,
      long writerBytes,
      long compactionOutputBytes,
      long compactionInputBytes,
      int compactionRuns,
      int committingCompactions,
      int otherRuns,
      int writerCommits,
      int writerFailures,
      long peakRssBytes,
      String loadAverage,
      int deleteRewrites,
      Map<String, KindFigures> byKind) {
    double healthyShare() {
      return samples == 0 ? 0 : healthySamples / (double) samples;
    }

    double writeAmplification() {
      return writerBytes == 0 ? 0 : compactionOutputBytes / (double) writerBytes;
    }
  }

  /**
   * One table kind's figures: samples healthy, bytes writers committed, bytes compactions and
   * delete-file rewrites wrote.
   */
  record KindFigures(long healthySamples, long samples, long writerBytes, long rewrittenBytes) {
    double healthyShare() {
      return samples == 0 ? 0 : healthySamples / (double) samples;
    }

    double writeAmplification() {
      return writerBytes == 0 ? 0 : rewrittenBytes / (double) writerBytes;
    }
  }

  /** Runs that rewrite table files: compactions and, chosen per table, delete-file rewrites. */
  static boolean rewritesFiles(RunRecord run) {
    return run.operation().equals("compact") || run.operation().equals("rewrite-position-deletes");
  }

  static Map<String, KindFigures> byKind(
      HealthSampler.Samples samples,
      Map<String, AtomicLong> writerBytes,
      Map<String, Long> rewrittenBytes) {
    Map<String, KindFigures> figures = new java.util.TreeMap<>();
    for (String kind : samples.totalByKind().keySet()) {
      figures.put(
          kind,
          new KindFigures(
              samples.healthyByKind().getOrDefault(kind, 0L),
              samples.totalByKind().get(kind),
              writerBytes.getOrDefault(kind, new AtomicLong()).get(),
              rewrittenBytes.getOrDefault(kind, 0L)));
    }
    return figures;
  }

  @Test
  void serveAgainstCron() throws Exception {
    Duration phase =
        dev.lakeops.unit.TimeInput.parseDuration(
            System.getProperty("lakeops.benchmark.serve"), "lakeops.benchmark.serve");
    String stamp = Long.toString(System.currentTimeMillis(), 36);
    Instant started = Instant.now();
    String phases = System.getProperty("lakeops.benchmark.phases", "serve,cron");
    PhaseResult serve = servePhase("bench_serve_" + stamp, phase);
    System.out.println("serve phase: " + serve);
    if (!phases.contains("cron")) {
      return;
    }
    PhaseResult cron = cronPhase("bench_cron_" + stamp, phase);
    Path report =
        Path.of(
            System.getProperty("lakeops.benchmark.report", "../docs/benchmarks/serve-vs-cron.md"));
    Files.createDirectories(report.getParent());
    Files.writeString(report, ServeBenchmarkReport.markdown(phase, started, serve, cron));
    System.out.println(Files.readString(report));
  }

  private PhaseResult servePhase(String catalogName, Duration phase) throws Exception {
    Map<String, String> properties = catalogProperties(catalogName);
    Catalog catalog = connect(catalogName, properties);
    Path store = work.resolve(catalogName + ".db");
    Path policy = work.resolve("policy.yaml");
    Files.writeString(policy, POLICY);
    try (BenchmarkLake lake = new BenchmarkLake(catalog)) {
      lake.create();
      Process process =
          ServeJvm.start(
              "-Xmx512m",
              catalogName,
              properties,
              work.resolve("serve.log"),
              "--store",
              "sqlite:" + store,
              "--policy",
              policy.toString());
      AtomicLong peakRss = new AtomicLong();
      lake.startWriters();
      HealthSampler.Samples samples =
          HealthSampler.sample(
              catalog,
              lake.tables(),
              phase,
              () -> peakRss.accumulateAndGet(MachineReadings.peakRss(process.pid()), Math::max));
      lake.close();
      process.destroy();
      process.waitFor(90, TimeUnit.SECONDS);
      Files.copy(
          work.resolve("serve.log"),
          Path.of("target/serve-benchmark-serve.log"),
          java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      try (RunLedger ledger =
          JdbcRunLedger.open(StoreLocation.sqliteFile(store), Clock.systemUTC())) {
        List<RunRecord> runs = ledger.list(RunQuery.all().withLimit(100_000));
        List<RunRecord> compactions =
            runs.stream().filter(run -> run.operation().equals("compact")).toList();
        List<RunRecord> rewrites = runs.stream().filter(ServeBenchmark::rewritesFiles).toList();
        Map<String, Long> rewrittenByKind = new HashMap<>();
        for (RunRecord run : rewrites) {
          rewrittenByKind.merge(
              BenchmarkLake.kind(run.start().table()), run.figures().outputBytes(), Long::sum);
        }
        return new PhaseResult(
            "lakeops serve",
            samples.healthy(),
            samples.total(),
            samples.unhealthyByKind(),
            lake.writerBytes.get(),
            rewrites.stream().mapToLong(run -> run.figures().outputBytes()).sum(),
            rewrites.stream().mapToLong(run -> run.figures().inputBytes()).sum(),
            compactions.size(),
            (int)
                compactions.stream()
                    .filter(
                        run ->
                            run.status() == RunStatus.SUCCEEDED && run.figures().outputFiles() > 0)
                    .count(),
            runs.size() - rewrites.size(),
            lake.writerCommits.get(),
            lake.writerFailures.get(),
            peakRss.get(),
            MachineReadings.loadAverage(),
            rewrites.size() - compactions.size(),
            byKind(samples, lake.writerBytesByKind, rewrittenByKind));
      }
    }
  }

  private PhaseResult cronPhase(String catalogName, Duration phase) throws Exception {
    Catalog catalog = connect(catalogName, catalogProperties(catalogName));
    try (BenchmarkLake lake = new BenchmarkLake(catalog)) {
      lake.create();
      AtomicBoolean stop = new AtomicBoolean();
      AtomicLong output = new AtomicLong();
      AtomicLong input = new AtomicLong();
      Map<String, Long> outputByKind = new java.util.concurrent.ConcurrentHashMap<>();
      int[] runs = new int[2];
      Thread cron =
          new Thread(
              () -> {
                while (!stop.get()) {
                  long next = System.nanoTime() + CRON_INTERVAL.toNanos();
                  for (TableIdentifier identifier : lake.tables()) {
                    if (stop.get()) {
                      return;
                    }
                    try {
                      CompactionResult result =
                          new TableCompactor()
                              .compact(catalog.loadTable(identifier), CompactionRequest.binpack());
                      output.addAndGet(result.outputBytes());
                      outputByKind.merge(
                          BenchmarkLake.kind(identifier.toString()),
                          result.outputBytes(),
                          Long::sum);
                      input.addAndGet(result.inputBytes());
                      runs[0]++;
                      runs[1] += result.outputFiles() > 0 ? 1 : 0;
                    } catch (RuntimeException e) {
                      runs[0]++;
                    }
                  }
                  long wait = next - System.nanoTime();
                  if (wait > 0) {
                    try {
                      TimeUnit.NANOSECONDS.sleep(wait);
                    } catch (InterruptedException e) {
                      return;
                    }
                  }
                }
              },
              "cron");
      lake.startWriters();
      cron.start();
      HealthSampler.Samples samples = HealthSampler.sample(catalog, lake.tables(), phase, () -> {});
      stop.set(true);
      lake.close();
      cron.join(TimeUnit.MINUTES.toMillis(5));
      return new PhaseResult(
          "cron: compact every table every minute",
          samples.healthy(),
          samples.total(),
          samples.unhealthyByKind(),
          lake.writerBytes.get(),
          output.get(),
          input.get(),
          runs[0],
          runs[1],
          0,
          lake.writerCommits.get(),
          lake.writerFailures.get(),
          -1,
          MachineReadings.loadAverage(),
          0,
          byKind(samples, lake.writerBytesByKind, outputByKind));
    }
  }

  private Map<String, String> catalogProperties(String catalogName) throws IOException {
    return BenchmarkCatalog.properties(work, catalogName);
  }

  private static Catalog connect(String name, Map<String, String> properties) {
    return BenchmarkCatalog.connect(name, properties);
  }
}
