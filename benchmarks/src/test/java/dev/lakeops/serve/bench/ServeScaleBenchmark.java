package dev.lakeops.serve.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.iceberg.catalog.Catalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lakeops serve} over a lake of thousands of tables ({@link ScaleLake}) in a PostgreSQL JDBC
 * catalog, serve in its own JVM with its HTTP server. Measures peak RSS, the first full evaluation
 * and every later evaluation cycle (time, manifests read) from serve's log, the healthy share from
 * its metrics, when the fragmented tables were all healthy, and the latency of every endpoint. Not
 * a test: runs only with {@code -Dlakeops.benchmark.scale=TABLES}:
 *
 * <pre>
 * mvn -B -q -pl benchmarks -am test -Dtest=ServeScaleBenchmark -Dsurefire.failIfNoSpecifiedTests=false -Dlakeops.benchmark.scale=5000
 * </pre>
 *
 * ({@code -Dlakeops.benchmark.scale.duration=12m} how long serve runs). Writes
 * docs/benchmarks/serve-5000-tables.md.
 */
@EnabledIfSystemProperty(named = "lakeops.benchmark.scale", matches = ".+")
class ServeScaleBenchmark {
  static final String HEAP = "-Xmx512m";
  static final String POLICY =
      """
      catalog:
        poll-interval: 30s
        max-poll-interval: 2m
        max-concurrent-tables: 4
        memory: 256MB
        evaluation-threads: 4
        orphans.enabled: false
        compact:
          min-interval: 20s
      """;
  private static final Pattern CYCLE =
      Pattern.compile(
          "evaluation cycle (\\d+): (\\d+) table\\(s\\), (\\d+) evaluation\\(s\\) in ([0-9.]+) s, (\\d+) manifest\\(s\\) read");
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path work;

  @Test
  void serveAtScale() throws Exception {
    int size = Integer.parseInt(System.getProperty("lakeops.benchmark.scale"));
    Duration duration =
        dev.lakeops.unit.TimeInput.parseDuration(
            System.getProperty("lakeops.benchmark.scale.duration", "12m"),
            "lakeops.benchmark.scale.duration");
    String catalogName = "bench_scale_" + Long.toString(System.currentTimeMillis(), 36);
    Map<String, String> properties = BenchmarkCatalog.properties(work, catalogName);
    // the benchmark's own connection: more JDBC clients, to create the tables in parallel
    Map<String, String> creating = new LinkedHashMap<>(properties);
    creating.put("clients", "8");
    Catalog catalog =
        BenchmarkCatalog.connect(
            catalogName, creating, dev.lakeops.catalog.CatalogConnector.hadoopConfiguration());
    ServeScaleReport.Figures figures =
        new ServeScaleReport.Figures(size, duration, MachineReadings.loadAverage());
    try (ScaleLake lake = new ScaleLake(catalog, size)) {
      long creationStart = System.nanoTime();
      lake.create(8);
      figures.creation = Duration.ofNanos(System.nanoTime() - creationStart);
      System.out.println("created " + size + " tables in " + figures.creation);
      Path policy = Files.writeString(work.resolve("policy.yaml"), POLICY);
      Path log = work.resolve("serve.log");
      int port = freePort();
      lake.startWriters();
      Instant started = Instant.now();
      Process process =
          ServeJvm.start(
              HEAP,
              catalogName,
              properties,
              log,
              "--store",
              "sqlite:" + work.resolve("lakeops.db"),
              "--policy",
              policy.toString(),
              "--http",
              "127.0.0.1:" + port);
      try {
        observe(process, "http://127.0.0.1:" + port, started, duration, figures);
      } finally {
        process.destroy();
        process.waitFor(90, TimeUnit.SECONDS);
        Files.copy(
            log,
            Path.of("target/serve-scale-benchmark.log"),
            java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      }
      figures.writerCommits = lake.writerCommits.get();
      figures.writerFailures = lake.writerFailures.get();
      readCycles(Files.readAllLines(log), figures);
      figures.compactions = count(Files.readAllLines(log), " compact succeeded");
    }
    figures.loadAtEnd = MachineReadings.loadAverage();
    Path report =
        Path.of(
            System.getProperty(
                "lakeops.benchmark.report", "../docs/benchmarks/serve-5000-tables.md"));
    Files.createDirectories(report.getParent());
    Files.writeString(report, ServeScaleReport.markdown(figures));
    System.out.println(Files.readString(report));
  }

  /** Every second: RSS; every 15 s: health from the metrics and each endpoint's latency. */
  private static void observe(
      Process process, String base, Instant started, Duration duration, ServeScaleReport.Figures f)
      throws Exception {
    long end = System.nanoTime() + duration.toNanos();
    long nextSample = 0;
    int round = 0;
    while (System.nanoTime() < end && process.isAlive()) {
      TimeUnit.SECONDS.sleep(1);
      f.peakRssBytes = Math.max(f.peakRssBytes, MachineReadings.memory(process.pid(), "VmHWM:"));
      if (System.nanoTime() < nextSample) {
        continue;
      }
      nextSample = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
      double elapsed = Duration.between(started, Instant.now()).toMillis() / 1000.0;
      try {
        Map<String, Double> metrics = metrics(base, f);
        double tables = metrics.getOrDefault("lakeops_tables", 0.0);
        double unhealthy = metrics.getOrDefault("lakeops_tables_unhealthy", 0.0);
        f.healthSamples.add(new double[] {elapsed, tables, unhealthy});
        JsonNode fragmented = timed(f, "/api/tables?q=fragmented&sort=health&limit=1", base);
        JsonNode active = timed(f, "/api/tables?q=active&sort=health&limit=100", base);
        timed(f, "/api/tables", base);
        timed(f, "/api/tables?sort=name&limit=50&offset=" + (round * 50 % 4000), base);
        JsonNode worst = fragmented.get("tables");
        if (worst.size() > 0) {
          timed(f, "/api/tables/" + worst.get(0).get("table").asText(), base);
          if (worst.get(0).get("health_score").asInt() >= 90
              && tables >= f.size
              && f.fragmentedHealthyAfterSeconds == null) {
            f.fragmentedHealthyAfterSeconds = elapsed;
          }
        }
        int activeHealthy = 0;
        for (JsonNode row : active.get("tables")) {
          activeHealthy += row.get("health_score").asInt() >= 90 ? 1 : 0;
        }
        f.activeSamples += active.get("tables").size();
        f.activeHealthySamples += activeHealthy;
        timed(f, "/api/runs", base);
        timed(f, "/api/members", base);
        timedText(f, "/", base);
        round++;
      } catch (IOException e) {
        // not listening yet
      }
    }
    f.finalRssBytes = MachineReadings.memory(process.pid(), "VmRSS:");
  }

  private static Map<String, Double> metrics(String base, ServeScaleReport.Figures f)
      throws IOException, InterruptedException {
    String text = timedText(f, "/metrics", base);
    Map<String, Double> values = new LinkedHashMap<>();
    f.tableSeries = 0;
    for (String line : text.split("\\n")) {
      if (line.startsWith("lakeops_table_health_score{")) {
        f.tableSeries++;
      }
      if (line.startsWith("lakeops_tables ") || line.startsWith("lakeops_tables_unhealthy ")) {
        String[] parts = line.split(" ");
        values.put(parts[0], Double.parseDouble(parts[1]));
      }
    }
    return values;
  }

  private static JsonNode timed(ServeScaleReport.Figures f, String path, String base)
      throws IOException, InterruptedException {
    return JSON.readTree(timedText(f, path, base));
  }

  private static String timedText(ServeScaleReport.Figures f, String path, String base)
      throws IOException, InterruptedException {
    long start = System.nanoTime();
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30)).build(),
            HttpResponse.BodyHandlers.ofString());
    double millis = (System.nanoTime() - start) / 1e6;
    String endpoint = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
    if (endpoint.startsWith("/api/tables/")) {
      endpoint = "/api/tables/{table}";
    } else if (path.startsWith("/api/tables?")) {
      endpoint = "/api/tables?q,sort,offset,limit";
    }
    f.latencies.computeIfAbsent(endpoint, ignored -> new ArrayList<>()).add(millis);
    if (response.statusCode() != 200) {
      throw new IOException(path + ": HTTP " + response.statusCode());
    }
    return response.body();
  }

  private static void readCycles(List<String> log, ServeScaleReport.Figures f) {
    for (String line : log) {
      Matcher matcher = CYCLE.matcher(line);
      if (matcher.find()) {
        f.cycles.add(
            new ServeScaleReport.Cycle(
                Integer.parseInt(matcher.group(1)),
                Integer.parseInt(matcher.group(2)),
                Long.parseLong(matcher.group(3)),
                Double.parseDouble(matcher.group(4)),
                Long.parseLong(matcher.group(5))));
      }
    }
  }

  private static int count(List<String> log, String text) {
    return (int) log.stream().filter(line -> line.contains(text)).count();
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
