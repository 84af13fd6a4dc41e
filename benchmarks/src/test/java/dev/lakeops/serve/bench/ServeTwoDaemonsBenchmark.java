package dev.lakeops.serve.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lakeops.cli.serve.ServeProcesses;
import dev.lakeops.ledger.JdbcMemberTable;
import dev.lakeops.ledger.JdbcRunLedger;
import dev.lakeops.ledger.MemberRow;
import dev.lakeops.ledger.RunLedger;
import dev.lakeops.ledger.RunQuery;
import dev.lakeops.ledger.RunRecord;
import dev.lakeops.ledger.RunStatus;
import dev.lakeops.lock.TableLocks;
import dev.lakeops.telemetry.store.StoreLocation;
import dev.lakeops.verify.RowFingerprint;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.stream.Stream;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two {@code lakeops serve} processes, each in its own JVM, sharing one PostgreSQL store and the
 * serve benchmark's lake ({@link BenchmarkLake}, writers running) in a PostgreSQL JDBC catalog; one
 * of them is killed with {@code kill -9} halfway, while a compaction of it runs. Measures how the
 * work was divided, how long the survivor took to own and evaluate the dead member's tables,
 * whether two runs of one table ever overlapped, what became of the killed run and its files,
 * whether every row stayed, and the healthy share across the kill. Not a test: runs only with
 * {@code -Dlakeops.benchmark.members=DURATION}:
 *
 * <pre>
 * mvn -B -q -pl benchmarks -am test -Dtest=ServeTwoDaemonsBenchmark -Dsurefire.failIfNoSpecifiedTests=false -Dlakeops.benchmark.members=6m
 * </pre>
 *
 * ({@code -Dlakeops.benchmark.members.kill-at=3m} when the kill comes, default halfway; {@code
 * -Dlakeops.benchmark.members.other-host=NAME} runs the second daemon as if on another machine, in
 * its own UTS and mount namespaces with host name {@code NAME}, and kills only it, so that the
 * survivor cannot see its process is gone and waits out the member lease; needs root). Writes
 * docs/benchmarks/serve-two-daemons.md.
 */
@EnabledIfSystemProperty(named = "lakeops.benchmark.members", matches = ".+")
class ServeTwoDaemonsBenchmark {
  static final String HEAP = "-Xmx512m";

  /** After the writers stop: the survivor goes on this long before the rows are compared. */
  static final Duration QUIET = Duration.ofSeconds(45);

  /** From the kill time on, how long the benchmark waits for a compaction with files to kill. */
  private static final Duration KILL_WINDOW = Duration.ofSeconds(90);

  /**
   * Small files committed at once to an idle table of the daemon to be killed, at the kill time.
   */
  static final int BACKLOG_FILES = 300;

  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path work;

  /** One serve process: its name in the report, process, machine name, log and HTTP port. */
  record Daemon(String name, Process process, String host, Path log, int port) {
    String processName() {
      return process.pid() + "@" + host;
    }
  }

  @Test
  void twoDaemonsOneLake() throws Exception {
    Duration duration = duration("lakeops.benchmark.members", null);
    Duration killAfter = duration("lakeops.benchmark.members.kill-at", duration.dividedBy(2));
    Optional<String> otherHost =
        Optional.ofNullable(System.getProperty("lakeops.benchmark.members.other-host"));
    String catalogName = "bench_members_" + Long.toString(System.currentTimeMillis(), 36);
    Map<String, String> properties = BenchmarkCatalog.properties(work, catalogName);
    Catalog catalog = BenchmarkCatalog.connect(catalogName, properties);
    String store = ServeProcesses.freshPostgresqlStore("lakeops_bench_members");
    ServeTwoDaemonsReport.Figures figures =
        new ServeTwoDaemonsReport.Figures(duration, killAfter, MachineReadings.loadAverage());
    figures.otherHost = otherHost.orElse(null);
    Path policy = Files.writeString(work.resolve("policy.yaml"), ServeBenchmark.POLICY);
    List<Daemon> daemons = new ArrayList<>();
    try (BenchmarkLake lake = new BenchmarkLake(catalog)) {
      lake.create();
      daemons.add(start("first", catalogName, properties, store, policy, Optional.empty()));
      daemons.add(start("second", catalogName, properties, store, policy, otherHost));
      for (Daemon daemon : daemons) {
        awaitJoined(daemon);
      }
      figures.started = Instant.now();
      lake.startWriters();
      AtomicLongArray peakRss = new AtomicLongArray(2);
      ExecutorService sampling = Executors.newSingleThreadExecutor();
      Future<HealthSampler.Samples> samples =
          sampling.submit(() -> sample(catalog, lake, duration, daemons, peakRss));
      TimeUnit.MILLISECONDS.sleep(killAfter.toMillis());
      Daemon killed = daemons.get(1);
      Daemon survivor = daemons.get(0);
      killDuringACompaction(killed, lake, catalog, catalogName, store, figures);
      figures.killed = killed.name();
      figures.survivor = survivor.name();
      awaitTakeover(survivor, catalogName, store, figures);
      figures.samples = samples.get();
      sampling.shutdown();
      lake.close();
      figures.writerCommits = lake.writerCommits.get();
      figures.writerFailures = lake.writerFailures.get();
      checkRows(catalog, lake, figures);
      figures.peakRssFirst = peakRss.get(0);
      figures.peakRssSecond = peakRss.get(1);
      survivor.process().destroy();
      survivor.process().waitFor(90, TimeUnit.SECONDS);
      readLedger(catalog, store, killed, survivor, figures);
      figures.survivorLog = Files.readAllLines(survivor.log());
      keepLogs(daemons);
    } finally {
      for (Daemon daemon : daemons) {
        daemon.process().destroyForcibly().waitFor(30, TimeUnit.SECONDS);
      }
      ServeProcesses.dropPostgresqlStore(store);
    }
    figures.loadAtEnd = MachineReadings.loadAverage();
    Path report =
        Path.of(
            System.getProperty(
                "lakeops.benchmark.report", "../docs/benchmarks/serve-two-daemons.md"));
    Files.createDirectories(report.getParent());
    Files.writeString(report, ServeTwoDaemonsReport.markdown(figures));
    System.out.println(Files.readString(report));
  }

  /** The duration system property {@code name}, {@code otherwise} when it is not set. */
  private static Duration duration(String name, Duration otherwise) {
    String value = System.getProperty(name);
    return value == null ? otherwise : dev.lakeops.unit.TimeInput.parseDuration(value, name);
  }

  /** Samples the lake's health for {@code duration}, and each daemon's peak RSS every second. */
  private static HealthSampler.Samples sample(
      Catalog catalog,
      BenchmarkLake lake,
      Duration duration,
      List<Daemon> daemons,
      AtomicLongArray peakRss)
      throws InterruptedException {
    return HealthSampler.sample(
        catalog,
        lake.tables(),
        duration,
        () -> {
          for (int index = 0; index < daemons.size(); index++) {
            long pid = daemons.get(index).process().pid();
            peakRss.accumulateAndGet(index, MachineReadings.peakRss(pid), Math::max);
          }
        });
  }

  /** Copies the daemons' logs to target/serve-two-daemons-NAME.log. */
  private static void keepLogs(List<Daemon> daemons) throws IOException {
    for (Daemon daemon : daemons) {
      Files.copy(
          daemon.log(),
          Path.of("target/serve-two-daemons-" + daemon.name() + ".log"),
          java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
  }

  private Daemon start(
      String name,
      String catalogName,
      Map<String, String> properties,
      String store,
      Path policy,
      Optional<String> otherHost)
      throws IOException {
    int port = freePort();
    Path log = work.resolve(name + ".log");
    List<String> launcher = List.of();
    if (otherHost.isPresent()) {
      Path hosts = work.resolve(name + ".hosts");
      Files.writeString(
          hosts, Files.readString(Path.of("/etc/hosts")) + "\n127.0.1.1 " + otherHost.get() + "\n");
      launcher =
          List.of(
              "unshare",
              "--uts",
              "--mount",
              "sh",
              "-c",
              "hostname \"$0\" && mount --bind \"$1\" /etc/hosts && shift && exec \"$@\"",
              otherHost.get(),
              hosts.toString());
    }
    Process process =
        ServeJvm.start(
            launcher,
            HEAP,
            catalogName,
            properties,
            log,
            "--store",
            store,
            "--policy",
            policy.toString(),
            "--http",
            "127.0.0.1:" + port);
    return new Daemon(name, process, otherHost.orElse(TableLocks.host()), log, port);
  }

  /** Waits (up to 5 minutes on a loaded machine) until the daemon joined the store's members. */
  private static void awaitJoined(Daemon daemon) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
    while (!ServeProcesses.read(daemon.log()).contains("joined as member")) {
      if (System.nanoTime() > deadline || !daemon.process().isAlive()) {
        throw new IllegalStateException(
            "the " + daemon.name() + " daemon did not join:\n" + ServeProcesses.read(daemon.log()));
      }
      TimeUnit.SECONDS.sleep(1);
    }
  }

  /**
   * Commits a backlog of {@link #BACKLOG_FILES} small files to an idle table {@code victim} owns,
   * waits (up to {@link #KILL_WINDOW}) until the victim's compaction of it has written output
   * files, and kills the victim with {@code kill -9} then (at the end of the window at the latest).
   * Records the victim's tables, the run in flight and the files it had written.
   */
  private static void killDuringACompaction(
      Daemon victim,
      BenchmarkLake lake,
      Catalog catalog,
      String catalogName,
      String store,
      ServeTwoDaemonsReport.Figures figures)
      throws InterruptedException {
    try (JdbcMemberTable members = JdbcMemberTable.open(StoreLocation.parse(store))) {
      String memberId = memberId(members, catalogName, victim.processName()).orElseThrow();
      figures.killedMember = memberId;
      members
          .owners(catalogName)
          .forEach(
              (table, owner) -> {
                if (owner.equals(memberId)) {
                  figures.killedTables.add(table);
                }
              });
    }
    String backlog =
        figures.killedTables.stream()
            .filter(table -> table.contains(".healthy_") || table.contains(".fragmented_"))
            .sorted()
            .findFirst()
            .orElse(figures.killedTables.stream().sorted().findFirst().orElseThrow());
    figures.backlogTable = backlog;
    lake.appendBacklog(TableIdentifier.parse(backlog), BACKLOG_FILES);
    long deadline = System.nanoTime() + KILL_WINDOW.toNanos();
    Optional<RunRecord> inFlight = Optional.empty();
    search:
    while (System.nanoTime() < deadline) {
      for (RunRecord run : runningCompactions(store)) {
        if (run.process().equals(victim.processName())
            && run.start().table().equals(backlog)
            && !outputFiles(catalog, run).isEmpty()) {
          inFlight = Optional.of(run);
          break search;
        }
      }
      TimeUnit.MILLISECONDS.sleep(20);
    }
    victim.process().destroyForcibly();
    figures.killedAt = Instant.now();
    victim.process().waitFor(30, TimeUnit.SECONDS);
    if (inFlight.isPresent()) {
      figures.killedRun = inFlight.get().runId();
      figures.killedRunTable = inFlight.get().start().table();
      figures.filesAtKill = outputFiles(catalog, inFlight.get());
    }
  }

  /**
   * Polls the store and the survivor's {@code /api/tables} until the survivor owns every table of
   * the killed member and has evaluated each since the kill (up to 3 minutes).
   */
  private static void awaitTakeover(
      Daemon survivor, String catalogName, String store, ServeTwoDaemonsReport.Figures figures)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
    try (JdbcMemberTable members = JdbcMemberTable.open(StoreLocation.parse(store))) {
      String survivorId = memberId(members, catalogName, survivor.processName()).orElseThrow();
      Set<String> evaluated = new HashSet<>();
      while (System.nanoTime() < deadline) {
        Map<String, String> owners = members.owners(catalogName);
        if (figures.ownedAt == null
            && figures.killedTables.stream().allMatch(t -> survivorId.equals(owners.get(t)))) {
          figures.ownedAt = Instant.now();
        }
        evaluated.addAll(evaluatedSince(survivor, figures.killedAt));
        if (figures.ownedAt != null && evaluated.containsAll(figures.killedTables)) {
          figures.evaluatedAt = Instant.now();
          return;
        }
        TimeUnit.MILLISECONDS.sleep(250);
      }
      figures.notEvaluated.addAll(figures.killedTables);
      figures.notEvaluated.removeAll(evaluated);
    }
  }

  /** Tables the daemon's last evaluation of which came after {@code since}. */
  private static Set<String> evaluatedSince(Daemon daemon, Instant since) {
    Set<String> tables = new HashSet<>();
    try {
      HttpResponse<String> response =
          HTTP.send(
              HttpRequest.newBuilder(
                      URI.create(
                          "http://127.0.0.1:" + daemon.port() + "/api/tables?sort=name&limit=1000"))
                  .timeout(Duration.ofSeconds(10))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      for (JsonNode row : JSON.readTree(response.body()).get("tables")) {
        if (!Instant.parse(row.get("sampled_at").asText()).isBefore(since)) {
          tables.add(row.get("table").asText());
        }
      }
    } catch (IOException | RuntimeException e) {
      // not answering this time: asked again
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return tables;
  }

  /**
   * Rows: each table's live rows against what the writers committed, and the fingerprint of every
   * table when the writers stopped against the one after {@link #QUIET} more of maintenance.
   */
  private static void checkRows(
      Catalog catalog, BenchmarkLake lake, ServeTwoDaemonsReport.Figures figures)
      throws InterruptedException {
    Map<TableIdentifier, RowFingerprint> stopped = new LinkedHashMap<>();
    for (TableIdentifier table : lake.tables()) {
      stopped.put(table, RowFingerprint.of(catalog.loadTable(table)));
    }
    TimeUnit.MILLISECONDS.sleep(QUIET.toMillis());
    for (TableIdentifier table : lake.tables()) {
      RowFingerprint now = RowFingerprint.of(catalog.loadTable(table));
      figures.tablesCompared++;
      figures.rowsAtEnd += now.rowCount();
      figures.rowsCommitted += lake.liveRows(table);
      if (now.rowCount() != lake.liveRows(table)) {
        figures.rowMismatches.add(
            table + ": " + now.rowCount() + " live rows, writers left " + lake.liveRows(table));
      }
      if (!now.equals(stopped.get(table))) {
        figures.fingerprintMismatches.add(table + ": " + stopped.get(table) + " then " + now);
      }
    }
  }

  private static void readLedger(
      Catalog catalog,
      String store,
      Daemon killed,
      Daemon survivor,
      ServeTwoDaemonsReport.Figures figures) {
    try (RunLedger ledger = JdbcRunLedger.open(StoreLocation.parse(store), Clock.systemUTC())) {
      TwoDaemonsLedger runs =
          new TwoDaemonsLedger(
              ledger.list(RunQuery.all().withLimit(100_000)),
              killed.processName(),
              figures.killedAt);
      figures.ledger = runs;
      figures.killedProcess = killed.processName();
      figures.survivorProcess = survivor.processName();
      figures.overlaps = runs.overlaps(Instant.now());
      if (figures.killedRun != null) {
        figures.killedRunAtEnd = runs.run(figures.killedRun).orElse(null);
        Set<String> committed = new HashSet<>();
        try (org.apache.iceberg.io.CloseableIterable<org.apache.iceberg.FileScanTask> tasks =
            catalog
                .loadTable(TableIdentifier.parse(figures.killedRunTable))
                .newScan()
                .planFiles()) {
          tasks.forEach(
              task ->
                  committed.add(Path.of(URI.create(task.file().location()).getPath()).toString()));
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
        figures.filesLeft =
            figures.filesAtKill.stream()
                .filter(file -> Files.exists(file))
                .filter(file -> !committed.contains(file.toString()))
                .toList();
      }
    }
  }

  private static List<RunRecord> runningCompactions(String store) {
    try (RunLedger ledger = JdbcRunLedger.open(StoreLocation.parse(store), Clock.systemUTC())) {
      return ledger.list(RunQuery.all().withStatus(RunStatus.RUNNING)).stream()
          .filter(run -> run.start().operation().equals("compact"))
          .toList();
    } catch (RuntimeException e) {
      return List.of();
    }
  }

  /** The files under the run's table's location named after the run's id. */
  private static List<Path> outputFiles(Catalog catalog, RunRecord run) {
    Path location;
    try {
      String text = catalog.loadTable(TableIdentifier.parse(run.start().table())).location();
      location = Path.of(text.startsWith("file:") ? URI.create(text).getPath() : text);
    } catch (RuntimeException e) {
      return List.of();
    }
    if (!Files.exists(location)) {
      return List.of();
    }
    try (Stream<Path> files = Files.walk(location)) {
      return files
          .filter(Files::isRegularFile)
          .filter(file -> file.getFileName().toString().contains("lakeops-" + run.runId()))
          .filter(file -> file.getFileName().toString().endsWith(".parquet"))
          .toList();
    } catch (IOException | java.io.UncheckedIOException e) {
      return List.of();
    }
  }

  private static Optional<String> memberId(
      JdbcMemberTable members, String catalogName, String process) {
    return members.members(catalogName).stream()
        .filter(member -> member.process().equals(process))
        .map(MemberRow::memberId)
        .findFirst();
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
