package dev.lakeops.cli.serve;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.cli.Main;
import dev.lakeops.control.DaemonHarness;
import dev.lakeops.health.TableHealthTracker;
import dev.lakeops.ledger.JdbcRunLedger;
import dev.lakeops.ledger.RunLedger;
import dev.lakeops.ledger.RunQuery;
import dev.lakeops.ledger.RunRecord;
import dev.lakeops.ledger.RunStatus;
import dev.lakeops.lock.TableLease;
import dev.lakeops.telemetry.store.StoreLocation;
import dev.lakeops.testing.SimpleTables;
import dev.lakeops.verify.RowFingerprint;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real {@code lakeops serve} in its own JVM (the CLI's main class on the test class path):
 * killed with {@code kill -9} in the middle of its work, restarted with {@code --once} (nothing
 * lost, duplicated or redone), then stopped with SIGTERM during a compaction (exit 0 in time, the
 * compaction finished within the grace period).
 */
class ServeProcessTest {
  private static final String POLICY =
      """
      catalog:
        poll-interval: 1s
        max-concurrent-tables: 1
        memory: 128MB
        compact:
          min-small-files: 8
      """;

  @TempDir Path warehouse;
  @TempDir Path work;

  @Test
  void killedServeResumesAndSigtermExitsZeroInTime() throws Exception {
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
    Map<String, RowFingerprint> before = new LinkedHashMap<>();
    for (int index = 0; index < 3; index++) {
      Table table = SimpleTables.create(catalog, "t" + index, 2, Map.of());
      for (int file = 0; file < 16; file++) {
        SimpleTables.append(table, file % 2, file * 1_000L, 200);
      }
      before.put("db.t" + index, RowFingerprint.of(table));
    }
    Path policy = work.resolve("policy.yaml");
    Files.writeString(policy, POLICY);

    Path firstLog = work.resolve("first.log");
    Process first = serve(firstLog, "--policy", policy.toString(), "--lock-lease", "5s");
    awaitLog(firstLog, Duration.ofSeconds(60), text -> text.contains("compact succeeded"));
    // serve logs "started" before it records the run: kill only once the ledger holds one running
    DaemonHarness.await(
        "a compaction recorded as running", Duration.ofSeconds(60), this::compactionRunning);
    first.destroyForcibly();
    assertThat(first.waitFor(20, TimeUnit.SECONDS)).isTrue();

    assertFingerprints(catalog, before);
    awaitLeasesExpired(catalog);
    Path secondLog = work.resolve("second.log");
    Process second = serve(secondLog, "--policy", policy.toString(), "--once");
    assertThat(second.waitFor(90, TimeUnit.SECONDS)).as(read(secondLog)).isTrue();
    assertThat(second.exitValue()).as(read(secondLog)).isZero();

    assertFingerprints(catalog, before);
    try (RunLedger ledger =
        JdbcRunLedger.open(
            StoreLocation.sqliteFile(warehouse.resolve(".lakeops/lakeops.db")),
            Clock.systemUTC())) {
      List<RunRecord> runs = ledger.list(RunQuery.all());
      assertThat(runs).filteredOn(run -> run.status() == RunStatus.RUNNING).isEmpty();
      assertThat(runs)
          .anySatisfy(
              run -> {
                assertThat(run.status()).isEqualTo(RunStatus.ABANDONED);
                assertThat(run.error().orElseThrow()).contains("ended without finishing the run");
              });
      for (String table : before.keySet()) {
        assertThat(runs)
            .as(table + " compacted exactly once")
            .filteredOn(
                run ->
                    run.table().equals(table)
                        && run.operation().equals("compact")
                        && run.status() == RunStatus.SUCCEEDED)
            .hasSize(1);
        assertThat(healthScore(catalog, "db", table.substring(3))).isGreaterThanOrEqualTo(90);
      }
    }
    assertThat(read(secondLog)).contains("marked 1 run(s) of ended processes abandoned");

    Table last = SimpleTables.create(catalog, "t4", 2, Map.of());
    for (int file = 0; file < 24; file++) {
      SimpleTables.append(last, file % 2, file * 10_000L, 2_000);
    }
    RowFingerprint lastBefore = RowFingerprint.of(last);
    Path thirdLog = work.resolve("third.log");
    Process third = serve(thirdLog, "--policy", policy.toString(), "--shutdown-grace", "40s");
    awaitLog(thirdLog, Duration.ofSeconds(60), text -> text.contains("db.t4 compact started"));
    Instant signalled = Instant.now();
    third.destroy();
    assertThat(third.waitFor(60, TimeUnit.SECONDS)).as(read(thirdLog)).isTrue();
    assertThat(third.exitValue()).as(read(thirdLog)).isZero();
    assertThat(Duration.between(signalled, Instant.now())).isLessThan(Duration.ofSeconds(50));
    assertThat(read(thirdLog))
        .contains("stopping: waiting up to 40 s for 1 running operation(s)")
        .contains("db.t4 compact succeeded")
        .contains("stopped");
    last.refresh();
    assertThat(RowFingerprint.of(last)).isEqualTo(lastBefore);
  }

  /**
   * kill -9 in the middle of a compaction that has written output files but not committed them: the
   * next start removes exactly those files (named after the killed run's ledger id), the rows are
   * unchanged, and the table is compacted again.
   */
  @Test
  void filesOfACompactionKilledBeforeItsCommitAreRemovedAtTheNextStart() throws Exception {
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
    Table big = SimpleTables.create(catalog, "big", 2, Map.of());
    for (int file = 0; file < 48; file++) {
      SimpleTables.append(big, 0, file * 100_000L, 20_000);
    }
    RowFingerprint before = RowFingerprint.of(big);
    Path policy = work.resolve("slow-policy.yaml");
    Files.writeString(
        policy,
        """
        catalog:
          poll-interval: 1s
          max-concurrent-tables: 1
          memory: 128MB
          orphans.enabled: false
          compact:
            min-small-files: 8
            target-file-size: 64MB
            options:
              max-file-group-size-bytes: 1048576
              max-concurrent-file-group-rewrites: 1
              decode-free-merge: false
        """);
    Path dataDirectory = warehouse.resolve("db").resolve("big").resolve("data");

    Path firstLog = work.resolve("killed.log");
    Process first = serve(firstLog, "--policy", policy.toString(), "--lock-lease", "5s");
    DaemonHarness.await(
        "the compaction's first output files",
        Duration.ofSeconds(120),
        () -> !outputFiles(dataDirectory, "-lakeops-").isEmpty());
    first.destroyForcibly();
    Instant firstKilled = Instant.now();
    assertThat(first.waitFor(20, TimeUnit.SECONDS)).isTrue();
    big.refresh();
    assertThat(big.currentSnapshot().operation())
        .as("killed before its commit")
        .isEqualTo("append");
    String runId;
    try (RunLedger ledger =
        JdbcRunLedger.open(
            StoreLocation.sqliteFile(warehouse.resolve(".lakeops/lakeops.db")),
            Clock.systemUTC())) {
      runId = ledger.list(RunQuery.all().withStatus(RunStatus.RUNNING)).get(0).runId();
    }
    List<Path> leftovers = outputFiles(dataDirectory, "lakeops-" + runId);
    assertThat(leftovers).as("files the killed run wrote").isNotEmpty();

    awaitLeasesExpired(catalog);
    // the killed daemon's lease row in its run store ends 5 s (--lock-lease) after its last renewal
    DaemonHarness.await(
        "the killed daemon's store lease to end",
        Duration.ofSeconds(30),
        () -> Instant.now().isAfter(firstKilled.plusSeconds(6)));
    Path secondLog = work.resolve("restarted.log");
    Process second = serve(secondLog, "--policy", policy.toString(), "--once");
    assertThat(second.waitFor(180, TimeUnit.SECONDS)).as(read(secondLog)).isTrue();
    assertThat(second.exitValue()).as(read(secondLog)).isZero();

    big.refresh();
    assertThat(RowFingerprint.of(big)).isEqualTo(before);
    assertThat(big.currentSnapshot().operation())
        .as("compacted by the restarted daemon")
        .isEqualTo("replace");
    assertThat(outputFiles(dataDirectory, "lakeops-" + runId))
        .as("no file of the killed run is left")
        .isEmpty();
    assertThat(leftovers).allSatisfy(file -> assertThat(file).doesNotExist());
    assertThat(read(secondLog))
        .contains("db.big compact run " + runId)
        .contains("removed ")
        .contains(" uncommitted file(s) it wrote");
    try (RunLedger ledger =
        JdbcRunLedger.open(
            StoreLocation.sqliteFile(warehouse.resolve(".lakeops/lakeops.db")),
            Clock.systemUTC())) {
      RunRecord killed =
          ledger.list(RunQuery.all()).stream()
              .filter(run -> run.runId().equals(runId))
              .findFirst()
              .orElseThrow();
      assertThat(killed.status()).isEqualTo(RunStatus.ABANDONED);
      assertThat(killed.error().orElseThrow())
          .contains("ended without finishing the run; removed ");
    }
  }

  private boolean compactionRunning() {
    Path store = warehouse.resolve(".lakeops/lakeops.db");
    if (!Files.exists(store)) {
      return false;
    }
    try (RunLedger ledger =
        JdbcRunLedger.open(StoreLocation.sqliteFile(store), Clock.systemUTC())) {
      return ledger.list(RunQuery.all().withStatus(RunStatus.RUNNING)).stream()
          .anyMatch(run -> run.operation().equals("compact"));
    } catch (RuntimeException e) {
      return false;
    }
  }

  private static List<Path> outputFiles(Path directory, String marker) {
    if (!Files.exists(directory)) {
      return List.of();
    }
    try (java.util.stream.Stream<Path> files = Files.walk(directory)) {
      return files
          .filter(Files::isRegularFile)
          .filter(
              file ->
                  file.getFileName().toString().contains(marker)
                      && file.getFileName().toString().endsWith(".parquet"))
          .toList();
    } catch (IOException | java.io.UncheckedIOException e) {
      return List.of();
    }
  }

  private Process serve(Path log, String... options) throws IOException {
    String classPath =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command =
        new ArrayList<>(
            List.of(
                java,
                "-Xmx512m",
                "-XX:TieredStopAtLevel=1",
                "--add-opens=java.base/java.nio=ALL-UNNAMED",
                "-cp",
                classPath,
                Main.class.getName(),
                "serve",
                "--warehouse",
                warehouse.toString()));
    command.addAll(List.of(options));
    return new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .start();
  }

  private static void assertFingerprints(
      HadoopCatalog catalog, Map<String, RowFingerprint> expected) {
    expected.forEach(
        (name, fingerprint) -> {
          Table table = catalog.loadTable(TableIdentifier.parse(name));
          assertThat(RowFingerprint.of(table)).as(name).isEqualTo(fingerprint);
        });
  }

  private static void awaitLeasesExpired(HadoopCatalog catalog) throws InterruptedException {
    DaemonHarness.await(
        "the killed daemon's lock leases to expire",
        Duration.ofSeconds(30),
        () -> {
          for (TableIdentifier identifier :
              catalog.listTables(org.apache.iceberg.catalog.Namespace.of("db"))) {
            java.util.Optional<TableLease> lease =
                TableLease.from(catalog.loadTable(identifier).properties());
            if (lease.isPresent() && !lease.get().isExpiredAt(Instant.now())) {
              return false;
            }
          }
          return true;
        });
  }

  private static void awaitLog(
      Path log, Duration timeout, java.util.function.Predicate<String> condition)
      throws InterruptedException {
    DaemonHarness.await("serve's log in " + log, timeout, () -> condition.test(read(log)));
  }

  private static String read(Path log) {
    try {
      return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static int healthScore(HadoopCatalog catalog, String namespace, String name) {
    Table table = catalog.loadTable(TableIdentifier.of(namespace, name));
    return new TableHealthTracker().evaluate(table).score().score();
  }
}
