package dev.lakeops.trino.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.cli.Main;
import dev.lakeops.ledger.JdbcRunLedger;
import dev.lakeops.ledger.RunHost;
import dev.lakeops.ledger.RunLedger;
import dev.lakeops.ledger.RunQuery;
import dev.lakeops.ledger.RunRecord;
import dev.lakeops.ledger.RunStatus;
import dev.lakeops.trino.fs.LocalSchemeFileIO;
import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;
import io.trino.testing.StandaloneQueryRunner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The run ledger of {@code lakeops.telemetry.store} (a real SQLite file) in a real engine: Trino's
 * CALLs are rows of it, and {@code lakeops.system.runs} lists it, runs of the CLI included.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestRunLedgerSystemTable {
  private Path directory;
  private String store;
  private StandaloneQueryRunner runner;

  @BeforeAll
  void startEngine() throws Exception {
    directory = Files.createTempDirectory("lakeops-trino-run-ledger");
    store = "sqlite:" + directory.resolve("lakeops.db");
    runner =
        LakeOpsQueryRunner.create(directory, List.of(), Map.of("lakeops.telemetry.store", store));
    Map<String, String> unreachable =
        new HashMap<>(
            LakeOpsQueryRunner.lakeOpsCatalogProperties(
                catalogUrl(), directory.resolve("warehouse")));
    unreachable.put(
        "lakeops.telemetry.store",
        "jdbc:postgresql://127.0.0.1:1/test?user=postgres&connectTimeout=2");
    runner.createCatalog("lakeops_down", "lakeops", unreachable);
  }

  @AfterAll
  void stopEngine() throws Exception {
    if (runner != null) {
      runner.close();
    }
    try (Stream<Path> paths = Files.walk(directory)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    }
  }

  @Test
  void aCompactCallIsOneLedgerRowWithTheFiguresTheRunsTableShows() {
    FragmentedTables.create(runner, "traced", 5);
    long bytesBefore = FragmentedTables.fileBytes(runner, "traced");
    MaterializedResult rowsBefore =
        runner.execute("SELECT count(*), sum(id), checksum(country) FROM iceberg.db.traced");

    runner.execute("CALL lakeops.system.compact(schema_name => 'db', table_name => 'traced')");
    runner.execute("CALL lakeops.system.health(schema_name => 'db', table_name => 'traced')");

    assertThat(runner.execute("SELECT count(*), sum(id), checksum(country) FROM iceberg.db.traced"))
        .isEqualTo(rowsBefore);
    long snapshotId = FragmentedTables.currentSnapshotId(runner, "traced");
    RunRecord run = onlyLedgerRun("db.traced");
    assertThat(run.operation()).isEqualTo("compact");
    assertThat(run.start().host()).isEqualTo(RunHost.TRINO);
    assertThat(run.start().catalog()).isEqualTo("lakeops");
    assertThat(run.start().reason()).isEqualTo("CALL by user");
    assertThat(run.status()).isEqualTo(RunStatus.SUCCEEDED);
    assertThat(run.figures().inputFiles()).isEqualTo(5);
    assertThat(run.figures().outputFiles()).isEqualTo(1);
    assertThat(run.figures().inputBytes()).isEqualTo(bytesBefore);
    assertThat(run.figures().outputBytes()).isEqualTo(FragmentedTables.fileBytes(runner, "traced"));
    assertThat(run.figures().snapshotId()).hasValue(snapshotId);

    MaterializedResult runs =
        runner.execute(
            """
            SELECT procedure, status, host, trigger_reason, catalog_name, run_id, input_files, output_files,
                   input_bytes, snapshot_id, error, finished >= started
            FROM lakeops.system.runs WHERE table_name = 'traced' ORDER BY procedure""");
    assertThat(runs.getMaterializedRows())
        .extracting(MaterializedRow::getFields)
        .containsExactly(
            Arrays.asList(
                "compact",
                "SUCCEEDED",
                "trino",
                "CALL by user",
                "lakeops",
                run.runId(),
                5L,
                1L,
                bytesBefore,
                snapshotId,
                null,
                true),
            Arrays.asList(
                "health",
                "SUCCEEDED",
                "trino",
                "CALL by user",
                "lakeops",
                null,
                null,
                null,
                null,
                null,
                null,
                true));
  }

  @Test
  void theRunsTableListsACompactionTheCommandLineRecordedInTheSameStore() {
    FragmentedTables.create(runner, "by_cli", 6);
    long bytesBefore = FragmentedTables.fileBytes(runner, "by_cli");
    MaterializedResult rowsBefore =
        runner.execute("SELECT count(*), sum(id), checksum(country) FROM iceberg.db.by_cli");

    int exitCode =
        Main.run(
            "compact",
            "db.by_cli",
            "-C",
            "name=" + LakeOpsQueryRunner.JDBC_CATALOG_NAME,
            "-C",
            "type=jdbc",
            "-C",
            "uri=" + catalogUrl(),
            "-C",
            "warehouse=local:///",
            "-C",
            "io-impl=" + LocalSchemeFileIO.class.getName(),
            "-C",
            LocalSchemeFileIO.ROOT_PROPERTY + "=" + directory.resolve("warehouse"),
            "--store",
            store,
            "--json");

    assertThat(exitCode).isZero();
    assertThat(FragmentedTables.fileCount(runner, "by_cli")).isEqualTo(1);
    assertThat(runner.execute("SELECT count(*), sum(id), checksum(country) FROM iceberg.db.by_cli"))
        .isEqualTo(rowsBefore);
    MaterializedRow run =
        runner
            .execute(
                """
                SELECT procedure, status, host, trigger_reason, catalog_name, schema_name, input_files, output_files,
                       input_bytes, snapshot_id, "user", query_id
                FROM lakeops.system.runs WHERE table_name = 'by_cli'""")
            .getMaterializedRows()
            .getFirst();
    assertThat(run.getFields())
        .containsExactly(
            "compact",
            "SUCCEEDED",
            "cli",
            "requested",
            LakeOpsQueryRunner.JDBC_CATALOG_NAME,
            "db",
            6L,
            1L,
            bytesBefore,
            FragmentedTables.currentSnapshotId(runner, "by_cli"),
            null,
            null);
    assertThat(
            runner
                .execute("SELECT count(*) FROM lakeops.system.runs WHERE table_name = 'by_cli'")
                .getOnlyValue())
        .isEqualTo(1L);
  }

  @Test
  void aStoreThatCannotBeReachedDoesNotFailTheCall() {
    FragmentedTables.create(runner, "unrecorded", 5);
    MaterializedResult rowsBefore =
        runner.execute("SELECT count(*), sum(id), checksum(country) FROM iceberg.db.unrecorded");

    runner.execute(
        "CALL lakeops_down.system.compact(schema_name => 'db', table_name => 'unrecorded')");

    assertThat(FragmentedTables.fileCount(runner, "unrecorded")).isEqualTo(1);
    assertThat(
            runner.execute(
                "SELECT count(*), sum(id), checksum(country) FROM iceberg.db.unrecorded"))
        .isEqualTo(rowsBefore);
    try (RunLedger ledger = JdbcRunLedger.open(store)) {
      assertThat(ledger.list(RunQuery.all().withTable("db.unrecorded"))).isEmpty();
    }
  }

  private RunRecord onlyLedgerRun(String table) {
    try (RunLedger ledger = JdbcRunLedger.open(store)) {
      List<RunRecord> runs = ledger.list(RunQuery.all().withTable(table));
      assertThat(runs).hasSize(1);
      return runs.getFirst();
    }
  }

  private String catalogUrl() {
    return "jdbc:sqlite:" + directory.resolve("catalog.db");
  }
}
