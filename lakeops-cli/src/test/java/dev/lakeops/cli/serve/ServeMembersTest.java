package dev.lakeops.cli.serve;

import static dev.lakeops.cli.serve.ServeProcesses.awaitLog;
import static dev.lakeops.cli.serve.ServeProcesses.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lakeops.control.DaemonHarness;
import dev.lakeops.ledger.JdbcMemberTable;
import dev.lakeops.ledger.JdbcRunLedger;
import dev.lakeops.ledger.RunLedger;
import dev.lakeops.ledger.RunQuery;
import dev.lakeops.ledger.RunRecord;
import dev.lakeops.ledger.RunStatus;
import dev.lakeops.telemetry.store.StoreLocation;
import dev.lakeops.testing.SimpleTables;
import dev.lakeops.testing.TableFiles;
import dev.lakeops.verify.RowFingerprint;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two real {@code lakeops serve} processes on one PostgreSQL store divide the lake: both compact,
 * never the same table at once; one killed with {@code kill -9} in the middle of a compaction loses
 * its tables to the other within its member lease, its run is abandoned and its files removed, and
 * every row stays.
 */
class ServeMembersTest {
  private static final String POLICY =
      """
      catalog:
        poll-interval: 1s
        max-poll-interval: 2s
        max-concurrent-tables: 1
        memory: 128MB
        orphans.enabled: false
        compact:
          min-small-files: 8
          min-interval: 1s
          target-file-size: 64MB
          options:
            max-file-group-size-bytes: 1048576
            max-concurrent-file-group-rewrites: 1
            decode-free-merge: false
      """;

  @TempDir Path warehouse;
  @TempDir Path work;

  private final List<Process> processes = new ArrayList<>();
  private String store;

  @AfterEach
  void stopProcesses() throws Exception {
    for (Process process : processes) {
      process.destroyForcibly().waitFor(20, TimeUnit.SECONDS);
    }
    if (store != null) {
      ServeProcesses.dropPostgresqlStore(store);
    }
  }

  @Test
  void twoDaemonsDivideTheLakeAndTheSurvivorTakesOverAKilledOne() throws Exception {
    assumeTrue(ServeProcesses.postgresqlReachable(), "PostgreSQL is not reachable");
    store = ServeProcesses.freshPostgresqlStore("lakeops_members_test");
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
    Map<String, RowFingerprint> before = new LinkedHashMap<>();
    for (int index = 0; index < 8; index++) {
      // compaction off until both daemons have joined, so that neither compacts the lake alone
      Table table =
          SimpleTables.create(catalog, "t" + index, 2, Map.of("lakeops.compact.enabled", "false"));
      for (int file = 0; file < 16; file++) {
        SimpleTables.append(table, file % 2, file * 10_000L, 3_000);
      }
      before.put("db.t" + index, RowFingerprint.of(table));
    }
    Path policy = work.resolve("policy.yaml");
    Files.writeString(policy, POLICY);

    Path firstLog = work.resolve("first.log");
    Path secondLog = work.resolve("second.log");
    Process first = start(firstLog, policy);
    Process second = start(secondLog, policy);
    awaitLog(firstLog, Duration.ofSeconds(60), text -> text.contains("2 live member(s)"));
    awaitLog(secondLog, Duration.ofSeconds(60), text -> text.contains("2 live member(s)"));
    for (int index = 0; index < 8; index++) {
      catalog
          .loadTable(TableIdentifier.of("db", "t" + index))
          .updateProperties()
          .set("lakeops.compact.enabled", "true")
          .commit();
    }
    awaitLog(firstLog, Duration.ofSeconds(60), text -> text.contains("compact succeeded"));
    awaitLog(secondLog, Duration.ofSeconds(60), text -> text.contains("compact succeeded"));
    DaemonHarness.await(
        "every table compacted once",
        Duration.ofSeconds(60),
        () -> succeededCompactions().stream().map(RunRecord::table).distinct().count() == 8);
    assertThat(succeededCompactions())
        .extracting(RunRecord::process)
        .as("both daemons compacted")
        .contains(process(first), process(second));

    // the second daemon's share: a table it owns gets a compaction long enough to be killed in
    String victim = tableOwnedBy(process(second));
    Table big = catalog.loadTable(TableIdentifier.parse(victim));
    // one commit, so that the daemon sees all the files at once and compacts them in one long run
    org.apache.iceberg.AppendFiles append = big.newAppend();
    for (int file = 0; file < 40; file++) {
      append.appendFile(
          TableFiles.write(
              big,
              SimpleTables.partition(big, 0),
              SimpleTables.rows(big.schema(), 1_000_000L + file * 100_000L, 20_000, 0)));
    }
    append.commit();
    before.put(victim, RowFingerprint.of(big));
    Path dataDirectory = warehouse.resolve("db").resolve(victim.substring(3)).resolve("data");
    try {
      DaemonHarness.await(
          "the second daemon to compact " + victim,
          Duration.ofSeconds(60),
          () -> runningRun(victim).isPresent());
    } catch (AssertionError e) {
      String log = read(secondLog);
      throw new AssertionError(
          e.getMessage()
              + "; the second daemon's log ends:\n"
              + log.substring(Math.max(0, log.length() - 6000)),
          e);
    }
    String killedRun = runningRun(victim).orElseThrow();
    DaemonHarness.await(
        "the compaction's first output files",
        Duration.ofSeconds(30),
        () -> !outputFiles(dataDirectory, killedRun).isEmpty());
    List<Path> leftovers = outputFiles(dataDirectory, killedRun);
    second.destroyForcibly();
    Instant killed = Instant.now();
    assertThat(second.waitFor(20, TimeUnit.SECONDS)).isTrue();

    awaitLog(firstLog, Duration.ofSeconds(30), text -> text.contains(") is dead: no heartbeat"));
    assertThat(Duration.between(killed, Instant.now()))
        .as("takeover within the member lease (4 s) and one look")
        .isLessThan(Duration.ofSeconds(6));
    DaemonHarness.await(
        victim + " compacted by the survivor",
        Duration.ofSeconds(90),
        () ->
            succeededCompactions().stream()
                .anyMatch(
                    run -> run.table().equals(victim) && run.process().equals(process(first))));
    first.destroy();
    assertThat(first.waitFor(60, TimeUnit.SECONDS)).as(read(firstLog)).isTrue();

    for (Map.Entry<String, RowFingerprint> table : before.entrySet()) {
      assertThat(RowFingerprint.of(catalog.loadTable(TableIdentifier.parse(table.getKey()))))
          .as(table.getKey() + " rows")
          .isEqualTo(table.getValue());
    }
    assertThat(leftovers).isNotEmpty().allSatisfy(file -> assertThat(file).doesNotExist());
    assertThat(read(firstLog))
        .contains("compact run " + killedRun + " of dead member ")
        .contains(" uncommitted file(s) it wrote");
    try (RunLedger ledger = ledger()) {
      List<RunRecord> runs = ledger.list(RunQuery.all());
      RunRecord abandoned =
          runs.stream().filter(run -> run.runId().equals(killedRun)).findFirst().orElseThrow();
      assertThat(abandoned.status()).isEqualTo(RunStatus.ABANDONED);
      assertThat(abandoned.error().orElseThrow())
          .contains("died without finishing the run; removed ");
      assertThat(runs).filteredOn(run -> run.status() == RunStatus.RUNNING).isEmpty();
      assertNoOverlap(runs);
    }
  }

  @Test
  void aSecondServeOnOneSqliteStoreIsRefused() throws Exception {
    Path policy = work.resolve("policy.yaml");
    Files.writeString(policy, POLICY);
    Path firstLog = work.resolve("first.log");
    Process first = ServeProcesses.serve(warehouse, firstLog, "--policy", policy.toString());
    processes.add(first);
    awaitLog(firstLog, Duration.ofSeconds(60), text -> text.contains("joined as member"));

    Path secondLog = work.resolve("second.log");
    Process second = ServeProcesses.serve(warehouse, secondLog, "--policy", policy.toString());
    processes.add(second);
    assertThat(second.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(second.exitValue()).isNotZero();
    assertThat(read(secondLog))
        .contains("lakeops: error: another serve (pid " + first.pid() + " on ")
        .contains(
            "a SQLite store stays single-process; to run several serve processes, point them all"
                + " at one PostgreSQL store (--store jdbc:postgresql://...)");
    assertThat(first.isAlive()).isTrue();
  }

  private Process start(Path log, Path policy) throws IOException {
    Process process =
        ServeProcesses.serve(
            warehouse,
            log,
            "--store",
            store,
            "--policy",
            policy.toString(),
            "--member-lease",
            "4s",
            "--lock-lease",
            "5s");
    processes.add(process);
    return process;
  }

  private static String process(Process process) {
    return process.pid() + "@" + dev.lakeops.lock.TableLocks.host();
  }

  private RunLedger ledger() {
    return JdbcRunLedger.open(StoreLocation.parse(store), Clock.systemUTC());
  }

  private List<RunRecord> succeededCompactions() {
    try (RunLedger ledger = ledger()) {
      return ledger.list(RunQuery.all().withStatus(RunStatus.SUCCEEDED)).stream()
          .filter(run -> run.operation().equals("compact"))
          .toList();
    }
  }

  private java.util.Optional<String> runningRun(String table) {
    try (RunLedger ledger = ledger()) {
      return ledger.list(RunQuery.all().withTable(table).withStatus(RunStatus.RUNNING)).stream()
          .filter(run -> run.operation().equals("compact"))
          .map(RunRecord::runId)
          .findFirst();
    }
  }

  private String tableOwnedBy(String process) {
    try (JdbcMemberTable members = JdbcMemberTable.open(StoreLocation.parse(store))) {
      String member =
          members.members("lakeops").stream()
              .filter(row -> row.process().equals(process))
              .findFirst()
              .orElseThrow()
              .memberId();
      return members.owners("lakeops").entrySet().stream()
          .filter(owner -> owner.getValue().equals(member))
          .map(Map.Entry::getKey)
          .sorted()
          .findFirst()
          .orElseThrow();
    }
  }

  /**
   * No two runs of one table overlap in time: each starts after the one before it ended. A run
   * skipped because another member held the table's lease did no work (it is recorded before the
   * lease is asked for, and ends at once), so it is not one of them.
   */
  private static void assertNoOverlap(List<RunRecord> runs) {
    Map<String, List<RunRecord>> byTable = new LinkedHashMap<>();
    runs.stream()
        .filter(run -> !run.start().dryRun())
        .filter(run -> !skippedForTheLease(run))
        .forEach(run -> byTable.computeIfAbsent(run.table(), key -> new ArrayList<>()).add(run));
    byTable.forEach(
        (table, tableRuns) -> {
          List<RunRecord> ordered =
              tableRuns.stream().sorted(Comparator.comparing(RunRecord::started)).toList();
          for (int index = 1; index < ordered.size(); index++) {
            RunRecord earlier = ordered.get(index - 1);
            RunRecord later = ordered.get(index);
            assertThat(later.started())
                .as(
                    table
                        + ": "
                        + describe(later)
                        + " starts after "
                        + describe(earlier)
                        + " ended")
                .isAfterOrEqualTo(earlier.finished().orElseThrow());
          }
        });
  }

  private static String describe(RunRecord run) {
    return run.runId()
        + " ("
        + run.process()
        + ", "
        + run.status()
        + run.error().map(error -> ": " + error).orElse("")
        + ")";
  }

  private static boolean skippedForTheLease(RunRecord run) {
    return run.status() == RunStatus.ABANDONED
        && run.error().map(error -> error.startsWith("skipped: ")).orElse(false);
  }

  private static List<Path> outputFiles(Path directory, String runId) {
    if (!Files.exists(directory)) {
      return List.of();
    }
    try (Stream<Path> files = Files.walk(directory)) {
      return files
          .filter(Files::isRegularFile)
          .filter(
              file ->
                  file.getFileName().toString().contains("lakeops-" + runId)
                      && file.getFileName().toString().endsWith(".parquet"))
          .toList();
    } catch (IOException | java.io.UncheckedIOException e) {
      return List.of();
    }
  }
}
