package dev.lakeops.trino.engine;

import static dev.lakeops.trino.engine.FragmentedTables.ROWS_PER_INSERT;
import static io.trino.testing.TestingAccessControlManager.TestingPrivilegeType.SELECT_COLUMN;
import static io.trino.testing.TestingAccessControlManager.privilege;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;
import io.trino.testing.StandaloneQueryRunner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * {@code lakeops.db."t$health"} and {@code lakeops.system.runs}, read with SELECT in a real engine.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestLakeOpsSystemTables {
  private static final String HEALTH =
      "SELECT data_files, small_data_files, records, snapshots, position_delete_files, equality_delete_files, partitions "
          + "FROM lakeops.db.\"%s$health\"";

  private Path directory;
  private StandaloneQueryRunner runner;

  @BeforeAll
  void startEngine() throws Exception {
    directory = Files.createTempDirectory("lakeops-trino-system-tables");
    runner = LakeOpsQueryRunner.create(directory, List.of());
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
  void healthShowsTheLayoutBeforeAndAfterACompaction() {
    FragmentedTables.create(runner, "fragmented", 6);
    long bytesBefore = FragmentedTables.fileBytes(runner, "fragmented");
    long snapshots = FragmentedTables.snapshotCount(runner, "fragmented");

    assertThat(row(HEALTH.formatted("fragmented")))
        .containsExactly(6L, 6L, 6L * ROWS_PER_INSERT, snapshots, 0L, 0L, 1L);
    assertThat(
            runner
                .execute(
                    "SELECT data_bytes, average_file_bytes, small_file_ratio FROM lakeops.db.\"fragmented$health\"")
                .getMaterializedRows()
                .getFirst()
                .getFields())
        .containsExactly(bytesBefore, bytesBefore / 6, 1.0);

    runner.execute("CALL lakeops.system.compact(schema_name => 'db', table_name => 'fragmented')");

    assertThat(row(HEALTH.formatted("fragmented")))
        .containsExactly(1L, 1L, 6L * ROWS_PER_INSERT, snapshots + 1, 0L, 0L, 1L);
    assertThat(
            runner
                .execute("SELECT data_bytes FROM lakeops.db.\"fragmented$health\"")
                .getOnlyValue())
        .isEqualTo(FragmentedTables.fileBytes(runner, "fragmented"));
  }

  @Test
  void runsListsACompactionWithItsFigures() {
    FragmentedTables.create(runner, "reported", 5);
    long bytesBefore = FragmentedTables.fileBytes(runner, "reported");

    runner.execute(
        "CALL lakeops.system.compact(schema_name => 'db', table_name => 'reported', strategy => 'binpack')");

    MaterializedRow run =
        runner
            .execute(
                """
                SELECT procedure, status, "user", dry_run, strategy, input_files, output_files, input_bytes, output_bytes,
                       removed_delete_files, dropped_groups, snapshot_id, error, seconds > 0, started <= current_timestamp
                FROM lakeops.system.runs WHERE schema_name = 'db' AND table_name = 'reported'""")
            .getMaterializedRows()
            .getFirst();
    assertThat(run.getFields())
        .containsExactly(
            "compact",
            "SUCCEEDED",
            "user",
            false,
            "binpack",
            5L,
            1L,
            bytesBefore,
            FragmentedTables.fileBytes(runner, "reported"),
            0L,
            0L,
            FragmentedTables.currentSnapshotId(runner, "reported"),
            null,
            true,
            true);
    assertThat(
            (String)
                runner
                    .execute(
                        "SELECT summary FROM lakeops.system.runs WHERE table_name = 'reported'")
                    .getOnlyValue())
        .startsWith("binpack: rewrote 5 data files");
  }

  @Test
  void healthCountsDeleteFilesAndACompactionRemovesThem() {
    FragmentedTables.create(runner, "with_deletes", 5);
    runner.execute("DELETE FROM with_deletes WHERE id % 10 = 0");
    long deleteFiles =
        (long)
            runner
                .execute("SELECT count(*) FROM \"with_deletes$files\" WHERE content = 1")
                .getOnlyValue();
    MaterializedResult before =
        runner.execute(
            "SELECT count(*), sum(id), checksum(country), checksum(note) FROM with_deletes");
    assertThat(deleteFiles).isPositive();
    assertThat(
            row(
                "SELECT data_files, position_delete_files, records FROM lakeops.db.\"with_deletes$health\""))
        .containsExactly(5L, deleteFiles, 5L * ROWS_PER_INSERT);

    runner.execute(
        "CALL lakeops.system.compact(schema_name => 'db', table_name => 'with_deletes')");

    assertThat(
            row(
                "SELECT data_files, position_delete_files, records FROM lakeops.db.\"with_deletes$health\""))
        .containsExactly(1L, 0L, 5L * ROWS_PER_INSERT - 5);
    assertThat(
            row(
                "SELECT input_files, output_files, removed_delete_files FROM lakeops.system.runs WHERE table_name = 'with_deletes'"))
        .containsExactly(5L, 1L, deleteFiles);
    assertThat(
            runner.execute(
                "SELECT count(*), sum(id), checksum(country), checksum(note) FROM with_deletes"))
        .isEqualTo(before);
  }

  @Test
  void runsListsMaintenanceProceduresHealthAndFailures() {
    FragmentedTables.create(runner, "maintained", 5);
    runner.execute("CALL lakeops.system.health(schema_name => 'db', table_name => 'maintained')");
    runner.execute("CALL lakeops.system.compact(schema_name => 'db', table_name => 'maintained')");
    runner.execute(
        "CALL lakeops.system.expire_snapshots(schema_name => 'db', table_name => 'maintained', older_than => '0s', retain_last => 1)");
    runner.execute(
        "CALL lakeops.system.remove_orphan_files(schema_name => 'db', table_name => 'maintained', dry_run => true)");
    long manifestsBefore = manifestCount("maintained");
    runner.execute(
        "CALL lakeops.system.rewrite_manifests(schema_name => 'db', table_name => 'maintained')");
    long manifestsAfter = manifestCount("maintained");
    assertThatThrownBy(
            () ->
                runner.execute(
                    "CALL lakeops.system.compact(schema_name => 'db', table_name => 'vanished')"))
        .hasMessageContaining("Table db.vanished not found");

    MaterializedResult runs =
        runner.execute(
            """
            SELECT procedure, status, dry_run, data_files, small_data_files, input_files, expired_snapshots, orphan_files,
                   rewritten_manifests, added_manifests
            FROM lakeops.system.runs WHERE table_name = 'maintained' ORDER BY started""");
    assertThat(runs.getMaterializedRows())
        .extracting(MaterializedRow::getFields)
        .containsExactly(
            Arrays.asList("health", "SUCCEEDED", false, 5L, 5L, null, null, null, null, null),
            Arrays.asList("compact", "SUCCEEDED", false, null, null, 5L, null, null, null, null),
            Arrays.asList(
                "expire_snapshots", "SUCCEEDED", false, null, null, null, 6L, null, null, null),
            Arrays.asList(
                "remove_orphan_files", "SUCCEEDED", true, null, null, null, null, 0L, null, null),
            Arrays.asList(
                "rewrite_manifests",
                "SUCCEEDED",
                false,
                null,
                null,
                null,
                null,
                null,
                manifestsBefore,
                manifestsAfter));
    assertThat(
            row(
                "SELECT procedure, status, strategy FROM lakeops.system.runs WHERE table_name = 'vanished'"))
        .containsExactly("compact", "FAILED", null);
    assertThat(
            (String)
                runner
                    .execute("SELECT error FROM lakeops.system.runs WHERE table_name = 'vanished'")
                    .getOnlyValue())
        .startsWith("LAKEOPS_TABLE_NOT_FOUND: Table db.vanished not found");
  }

  @Test
  void everyCallThatPassesAccessControlIsARunArgumentErrorsIncluded() {
    FragmentedTables.create(runner, "asked", 2);
    // each call with the value its error must name
    List<Map.Entry<String, String>> refused =
        List.of(
            Map.entry(
                "CALL lakeops.system.compact(schema_name => 'db', table_name => 'asked', strategy => 'shuffle')",
                "shuffle"),
            Map.entry(
                "CALL lakeops.system.compact(schema_name => 'db', table_name => 'asked', options => MAP(ARRAY['min-input-filez'], ARRAY['2']))",
                "min-input-filez"),
            Map.entry(
                "CALL lakeops.system.compact(schema_name => 'db', table_name => 'asked', memory_budget => 'lots')",
                "lots"),
            Map.entry(
                "CALL lakeops.system.expire_snapshots(schema_name => 'db', table_name => 'asked', older_than => 'soon')",
                "soon"),
            Map.entry(
                "CALL lakeops.system.rewrite_manifests(schema_name => 'db', table_name => 'asked', target_manifest_size => 'big')",
                "big"));
    for (Map.Entry<String, String> call : refused) {
      assertThatThrownBy(() -> runner.execute(call.getKey()))
          .as(call.getKey())
          .hasMessageContaining(call.getValue());
    }

    MaterializedResult runs =
        runner.execute(
            "SELECT procedure, status, error FROM lakeops.system.runs WHERE table_name = 'asked' ORDER BY started");
    assertThat(runs.getMaterializedRows()).hasSize(refused.size());
    assertThat(runs.getMaterializedRows())
        .extracting(row -> row.getField(0))
        .containsExactly("compact", "compact", "compact", "expire_snapshots", "rewrite_manifests");
    assertThat(runs.getMaterializedRows())
        .allSatisfy(
            row -> {
              assertThat(row.getField(1)).isEqualTo("FAILED");
              assertThat((String) row.getField(2)).startsWith("LAKEOPS_INVALID_ARGUMENT: ");
            });
    for (int run = 0; run < refused.size(); run++) {
      assertThat((String) runs.getMaterializedRows().get(run).getField(2))
          .contains(refused.get(run).getValue());
    }
    assertThat(FragmentedTables.fileCount(runner, "asked")).isEqualTo(2);
  }

  @Test
  void healthOfAMissingTableOrAnUnknownSuffixIsNoTable() {
    FragmentedTables.create(runner, "present", 1);
    assertThatThrownBy(() -> runner.execute("SELECT * FROM lakeops.db.\"absent$health\""))
        .hasMessageContaining("Table 'lakeops.db.\"absent$health\"' does not exist");
    assertThatThrownBy(() -> runner.execute("SELECT * FROM lakeops.db.\"present$layout\""))
        .hasMessageContaining("Table 'lakeops.db.\"present$layout\"' does not exist");
  }

  @Test
  void callerWithoutSelectOnTheTableCannotReadItsHealth() {
    FragmentedTables.create(runner, "secret", 2);
    runner.getAccessControl().deny(privilege("secret", SELECT_COLUMN));
    try {
      assertThatThrownBy(() -> runner.execute("SELECT * FROM lakeops.db.\"secret$health\""))
          .hasMessageContaining("Access Denied")
          .hasMessageContaining("lakeops.db.secret");
      assertThatThrownBy(
              () ->
                  runner.execute(
                      "CALL lakeops.system.health(schema_name => 'db', table_name => 'secret')"))
          .hasMessageContaining("Access Denied")
          .hasMessageContaining("lakeops.db.secret");
    } finally {
      runner.getAccessControl().reset();
    }
    assertThat(
            runner
                .execute("SELECT count(*) FROM lakeops.system.runs WHERE table_name = 'secret'")
                .getOnlyValue())
        .isEqualTo(0L);
  }

  private long manifestCount(String table) {
    return (long) runner.execute("SELECT count(*) FROM \"" + table + "$manifests\"").getOnlyValue();
  }

  private List<Object> row(String sql) {
    return runner.execute(sql).getMaterializedRows().getFirst().getFields();
  }
}
