package dev.lakeops.cli.serve;

import static dev.lakeops.cli.serve.ServeProcesses.awaitLog;
import static dev.lakeops.cli.serve.ServeProcesses.countOf;
import static dev.lakeops.cli.serve.ServeProcesses.read;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.control.DaemonHarness;
import dev.lakeops.ledger.JdbcRunLedger;
import dev.lakeops.ledger.RunLedger;
import dev.lakeops.ledger.RunQuery;
import dev.lakeops.ledger.RunRecord;
import dev.lakeops.ledger.RunStatus;
import dev.lakeops.telemetry.store.StoreLocation;
import dev.lakeops.testing.SimpleTables;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The failure policy on a real {@code lakeops serve}: a compaction that keeps failing (a corrupt
 * data file) is suspended after three tries, shown in {@code status}, {@code /api/members} and
 * {@code /metrics}; {@code lakeops resume} and a change of the table each let it run again; a run
 * stuck past its deadline is abandoned and tried again.
 */
class ServeFailurePolicyTest {
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @TempDir Path warehouse;
  @TempDir Path work;

  private final List<Process> processes = new ArrayList<>();

  @AfterEach
  void stopProcesses() throws Exception {
    for (Process process : processes) {
      process.destroyForcibly().waitFor(20, TimeUnit.SECONDS);
    }
  }

  @Test
  void aFailingCompactionIsSuspendedAfterThreeTriesAndResumes() throws Exception {
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
    Table bad = SimpleTables.create(catalog, "bad", 2, Map.of());
    DataFile corrupt = null;
    for (int file = 0; file < 12; file++) {
      DataFile written = SimpleTables.append(bad, 0, file * 1_000L, 100);
      corrupt = corrupt == null ? written : corrupt;
    }
    Files.write(Path.of(corrupt.location().replace("file:", "")), new byte[] {1, 2, 3, 4, 5});
    Path policy = work.resolve("policy.yaml");
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
            min-interval: 1s
        """);
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    Path log = work.resolve("serve.log");
    Process serve =
        ServeProcesses.serve(
            warehouse, log, "--policy", policy.toString(), "--http", "127.0.0.1:" + port);
    processes.add(serve);

    awaitLog(
        log,
        Duration.ofSeconds(90),
        text -> text.contains("db.bad compact suspended after 3 failures in a row"));
    Thread.sleep(3_000);
    assertThat(failedCompactions()).as(read(log)).isEqualTo(3);
    assertThat(read(log)).contains("resumes when the table changes or with: lakeops resume db.bad");

    Path statusLog = work.resolve("status.log");
    Process status =
        ServeProcesses.lakeops(statusLog, "status", "--warehouse", warehouse.toString());
    assertThat(status.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(read(statusLog))
        .contains("members: 1 live of 1")
        .contains("  suspended: compact after 3 failures in a row, since ")
        .contains("resumes when the table changes, or: lakeops resume db.bad");
    try {
      DaemonHarness.await(
          "the API to show the suspension",
          Duration.ofSeconds(10),
          () -> get(port, "/api/members").matches("(?s).*\"operation\" ?: ?\"compact\".*"));
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + ": " + get(port, "/api/members"), e);
    }
    assertThat(get(port, "/metrics"))
        .containsPattern(
            "lakeops_operation_suspended\\{(operation=\"compact\",table=\"db.bad\""
                + "|table=\"db.bad\",operation=\"compact\")\\} 1");
    assertThat(get(port, "/api/members"))
        .containsPattern("\"table\" ?: ?\"db.bad\"")
        .containsPattern("\"failures_in_row\" ?: ?3")
        .containsPattern("\"self\" ?: ?true");

    Path resumeLog = work.resolve("resume.log");
    Process resume =
        ServeProcesses.lakeops(resumeLog, "resume", "--warehouse", warehouse.toString(), "db.bad");
    assertThat(resume.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(resume.exitValue()).as(read(resumeLog)).isZero();
    assertThat(read(resumeLog))
        .contains("db.bad: compact resumed (suspended after 3 failures in a row; last: ");
    awaitLog(
        log,
        Duration.ofSeconds(60),
        text -> countOf(text, "db.bad compact suspended after 3 failures in a row") == 2);
    assertThat(read(log)).contains("db.bad resumed: its failures were cleared");
    assertThat(failedCompactions()).isEqualTo(6);

    bad.refresh();
    SimpleTables.append(bad, 1, 1_000_000L, 10);
    awaitLog(
        log,
        Duration.ofSeconds(60),
        text -> countOf(text, "db.bad compact suspended after 3 failures in a row") == 3);
    assertThat(read(log))
        .contains(
            "db.bad compact resumed: the table changed (a new snapshot or policy) since it was"
                + " suspended");
    assertThat(failedCompactions()).isEqualTo(9);
  }

  @Test
  void aRunStuckPastItsDeadlineIsAbandonedAndTriedAgain() throws Exception {
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
    Table big = SimpleTables.create(catalog, "big", 2, Map.of());
    for (int file = 0; file < 48; file++) {
      SimpleTables.append(big, 0, file * 100_000L, 20_000);
    }
    RowFingerprint before = RowFingerprint.of(big);
    Path policy = work.resolve("policy.yaml");
    Files.writeString(
        policy,
        """
        catalog:
          poll-interval: 1s
          max-concurrent-tables: 1
          memory: 128MB
          orphans.enabled: false
          failures:
            run-deadline: 250ms
            suspend-after: 2
          compact:
            min-small-files: 8
            min-interval: 1s
            target-file-size: 64MB
            options:
              max-file-group-size-bytes: 1048576
              max-concurrent-file-group-rewrites: 1
              decode-free-merge: false
        """);
    Path log = work.resolve("serve.log");
    Process serve =
        ServeProcesses.serve(warehouse, log, "--policy", policy.toString(), "--lock-lease", "5s");
    processes.add(serve);

    awaitLog(
        log,
        Duration.ofSeconds(90),
        text -> text.contains("db.big compact suspended after 2 failures in a row"));
    serve.destroy();
    assertThat(serve.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String text = read(log);
    assertThat(
            countOf(
                text,
                "db.big compact stuck past its deadline of 250ms (failures.run-deadline):"
                    + " abandoned, to be tried again"))
        .isEqualTo(2);
    try (RunLedger ledger = ledger()) {
      List<RunRecord> runs =
          ledger.list(RunQuery.all().withTable("db.big")).stream()
              .filter(run -> run.operation().equals("compact"))
              .toList();
      assertThat(runs)
          .filteredOn(
              run ->
                  run.status() == RunStatus.ABANDONED
                      && run.error().orElseThrow().startsWith("stuck past"))
          .hasSize(2)
          .allSatisfy(
              run ->
                  assertThat(run.error().orElseThrow())
                      .startsWith(
                          "stuck past its deadline of 250ms (failures.run-deadline): abandoned, to be"
                              + " tried again"));
      assertThat(runs).filteredOn(run -> run.status() == RunStatus.RUNNING).isEmpty();
    }
    big.refresh();
    assertThat(RowFingerprint.of(big)).isEqualTo(before);
  }

  private RunLedger ledger() {
    return JdbcRunLedger.open(
        StoreLocation.sqliteFile(warehouse.resolve(".lakeops/lakeops.db")), Clock.systemUTC());
  }

  private long failedCompactions() {
    try (RunLedger ledger = ledger()) {
      return ledger.list(RunQuery.all().withTable("db.bad").withStatus(RunStatus.FAILED)).stream()
          .filter(run -> run.operation().equals("compact"))
          .count();
    }
  }

  private static String get(int port, String path) {
    try {
      return HTTP.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
              HttpResponse.BodyHandlers.ofString())
          .body();
    } catch (IOException e) {
      return "";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "";
    }
  }
}
