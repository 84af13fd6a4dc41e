package dev.lakeops.trino.engine;

import static io.trino.testing.TestingAccessControlManager.TestingPrivilegeType.DELETE_TABLE;
import static io.trino.testing.TestingAccessControlManager.TestingPrivilegeType.INSERT_TABLE;
import static io.trino.testing.TestingAccessControlManager.privilege;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakeops.operation.ArgumentType;
import dev.lakeops.operation.Host;
import dev.lakeops.operation.Operation;
import dev.lakeops.operation.OperationArgument;
import dev.lakeops.operation.Operations;
import io.trino.execution.Failure;
import io.trino.spi.TrinoException;
import io.trino.testing.MaterializedResult;
import io.trino.testing.StandaloneQueryRunner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** CALL lakeops.system.* against tables written by Trino's Iceberg connector, in a real engine. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestLakeOpsProcedures {
  private static final String CHECKSUM =
      "SELECT count(*), sum(id), sum(amount), checksum(country), checksum(note) FROM %s";

  private Path directory;
  private StandaloneQueryRunner runner;

  @BeforeAll
  void startEngine() throws Exception {
    directory = Files.createTempDirectory("lakeops-trino-procedures");
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
  void compactMergesSmallFilesAndKeepsEveryRow() {
    createFragmentedTable("events", 6);
    MaterializedResult before = runner.execute(CHECKSUM.formatted("events"));
    assertThat(fileCount("events")).isEqualTo(6);

    runner.execute(
        "CALL lakeops.system.compact(schema_name => 'db', table_name => 'events', strategy => 'binpack')");

    assertThat(fileCount("events")).isEqualTo(1);
    assertThat(runner.execute(CHECKSUM.formatted("events"))).isEqualTo(before);
    assertThat(runner.execute("SELECT count(*) FROM events WHERE country = 'NL'").getOnlyValue())
        .isEqualTo(6L * 10 / 2);
  }

  @Test
  void compactHonoursWhereAndOptions() {
    runner.execute(
        "CREATE TABLE by_country (id BIGINT, country VARCHAR, amount DOUBLE, note VARCHAR) WITH (partitioning = ARRAY['country'])");
    for (int batch = 0; batch < 3; batch++) {
      insertBatch("by_country", batch);
    }
    MaterializedResult before = runner.execute(CHECKSUM.formatted("by_country"));
    assertThat(fileCount("by_country")).isEqualTo(6);

    runner.execute(
        """
        CALL lakeops.system.compact(
          schema_name => 'db', table_name => 'by_country', strategy => 'binpack',
          "where" => 'country = ''NL''',
          options => MAP(ARRAY['min-input-files'], ARRAY['2']))""");

    assertThat(
            runner
                .execute("SELECT count(*) FROM \"by_country$files\" WHERE partition.country = 'NL'")
                .getOnlyValue())
        .isEqualTo(1L);
    assertThat(
            runner
                .execute("SELECT count(*) FROM \"by_country$files\" WHERE partition.country = 'DE'")
                .getOnlyValue())
        .isEqualTo(3L);
    assertThat(runner.execute(CHECKSUM.formatted("by_country"))).isEqualTo(before);
  }

  @Test
  void compactSortsWithSortOrder() {
    createFragmentedTable("sorted", 4);
    MaterializedResult before = runner.execute(CHECKSUM.formatted("sorted"));

    runner.execute(
        "CALL lakeops.system.compact(schema_name => 'db', table_name => 'sorted', strategy => 'sort', sort_order => 'id DESC', "
            + "options => MAP(ARRAY['rewrite-all'], ARRAY['true']))");

    assertThat(fileCount("sorted")).isEqualTo(1);
    assertThat(runner.execute(CHECKSUM.formatted("sorted"))).isEqualTo(before);
    assertThat(runner.execute("SELECT id FROM sorted LIMIT 1").getOnlyValue()).isEqualTo(39L);
  }

  @Test
  void callerWithoutWriteAccessIsDeniedAndNothingChanges() {
    createFragmentedTable("guarded", 3);
    long snapshots = snapshotCount("guarded");
    runner.getAccessControl().deny(privilege("guarded", INSERT_TABLE));
    try {
      assertThatThrownBy(
              () ->
                  runner.execute(
                      "CALL lakeops.system.compact(schema_name => 'db', table_name => 'guarded')"))
          .hasMessageContaining("Access Denied: Cannot insert into table lakeops.db.guarded");
    } finally {
      runner.getAccessControl().reset();
    }
    runner.getAccessControl().deny(privilege("guarded", DELETE_TABLE));
    try {
      assertThatThrownBy(
              () ->
                  runner.execute(
                      "CALL lakeops.system.expire_snapshots(schema_name => 'db', table_name => 'guarded')"))
          .hasMessageContaining("Access Denied: Cannot delete from table lakeops.db.guarded");
    } finally {
      runner.getAccessControl().reset();
    }
    assertThat(fileCount("guarded")).isEqualTo(3);
    assertThat(snapshotCount("guarded")).isEqualTo(snapshots);
  }

  @Test
  void unknownStrategyIsAnInvalidArgument() {
    createFragmentedTable("bad_strategy", 2);
    assertThatThrownBy(
            () ->
                runner.execute(
                    "CALL lakeops.system.compact(schema_name => 'db', table_name => 'bad_strategy', strategy => 'fast')"))
        .satisfies(failure -> assertThat(errorName(failure)).isEqualTo("LAKEOPS_INVALID_ARGUMENT"))
        .hasMessageContaining("Unknown strategy 'fast'");
    assertThat(fileCount("bad_strategy")).isEqualTo(2);
  }

  @Test
  void unknownOptionIsAnInvalidArgument() {
    createFragmentedTable("bad_option", 2);
    assertThatThrownBy(
            () ->
                runner.execute(
                    "CALL lakeops.system.compact(schema_name => 'db', table_name => 'bad_option', "
                        + "options => MAP(ARRAY['target-file-size'], ARRAY['1']))"))
        .satisfies(failure -> assertThat(errorName(failure)).isEqualTo("LAKEOPS_INVALID_ARGUMENT"))
        .hasMessageContaining("target-file-size");
    assertThat(fileCount("bad_option")).isEqualTo(2);
  }

  @Test
  void numberOutOfRangeIsAnInvalidArgument() {
    createFragmentedTable("big_number", 2);
    long snapshots = snapshotCount("big_number");
    assertThatThrownBy(
            () ->
                runner.execute(
                    "CALL lakeops.system.expire_snapshots(schema_name => 'db', table_name => 'big_number', retain_last => 10000000000)"))
        .satisfies(failure -> assertThat(errorName(failure)).isEqualTo("LAKEOPS_INVALID_ARGUMENT"))
        .hasMessageContaining("retain_last = 10000000000 is out of range");
    assertThat(snapshotCount("big_number")).isEqualTo(snapshots);
  }

  @Test
  void missingTableIsReportedWithItsName() {
    assertThatThrownBy(
            () ->
                runner.execute(
                    "CALL lakeops.system.compact(schema_name => 'db', table_name => 'no_such_table')"))
        .satisfies(failure -> assertThat(errorName(failure)).isEqualTo("LAKEOPS_TABLE_NOT_FOUND"))
        .hasMessageContaining("Table db.no_such_table not found");
  }

  @Test
  void expireSnapshotsAndRewriteManifestsShrinkMetadata() {
    createFragmentedTable("history", 4);
    runner.execute("CALL lakeops.system.compact(schema_name => 'db', table_name => 'history')");
    MaterializedResult before = runner.execute(CHECKSUM.formatted("history"));
    assertThat(snapshotCount("history")).isGreaterThanOrEqualTo(5);

    runner.execute(
        "CALL lakeops.system.expire_snapshots(schema_name => 'db', table_name => 'history', older_than => '0s', retain_last => 1)");
    assertThat(snapshotCount("history")).isEqualTo(1);

    runner.execute(
        "CALL lakeops.system.rewrite_manifests(schema_name => 'db', table_name => 'history')");
    assertThat(runner.execute("SELECT count(*) FROM \"history$manifests\"").getOnlyValue())
        .isEqualTo(1L);
    assertThat(runner.execute(CHECKSUM.formatted("history"))).isEqualTo(before);
  }

  @Test
  void rewriteManifestsOfAFourPartitionTableNeverAddsManifests() {
    runner.execute(
        "CREATE TABLE four_days (id BIGINT, day INTEGER, amount DOUBLE) WITH (partitioning = ARRAY['day'])");
    for (int insert = 0; insert < 2; insert++) {
      runner.execute(
          "INSERT INTO four_days SELECT "
              + insert
              + " * 100 + n, n % 4, n * 0.5 FROM UNNEST(sequence(0, 99)) AS t(n)");
    }
    String checksum = "SELECT count(*), sum(id), sum(day), sum(amount) FROM four_days";
    MaterializedResult before = runner.execute(checksum);
    assertThat(
            runner
                .execute("SELECT count(DISTINCT partition.day) FROM \"four_days$files\"")
                .getOnlyValue())
        .isEqualTo(4L);
    assertThat(runner.execute("SELECT count(*) FROM \"four_days$manifests\"").getOnlyValue())
        .isEqualTo(2L);

    runner.execute(
        "CALL lakeops.system.rewrite_manifests(schema_name => 'db', table_name => 'four_days')");

    assertThat(runner.execute("SELECT count(*) FROM \"four_days$manifests\"").getOnlyValue())
        .isEqualTo(1L);
    assertThat(runner.execute(checksum)).isEqualTo(before);

    // one manifest left: nothing to pack, whatever the target size, so nothing is committed
    long snapshot = FragmentedTables.currentSnapshotId(runner, "four_days");
    runner.execute(
        "CALL lakeops.system.rewrite_manifests(schema_name => 'db', table_name => 'four_days', target_manifest_size => '1KB')");
    assertThat(FragmentedTables.currentSnapshotId(runner, "four_days")).isEqualTo(snapshot);
    assertThat(runner.execute("SELECT count(*) FROM \"four_days$manifests\"").getOnlyValue())
        .isEqualTo(1L);
  }

  @Test
  void removeOrphanFilesAndMaintainRunThroughTheEngine() {
    createFragmentedTable("kept", 5);
    MaterializedResult before = runner.execute(CHECKSUM.formatted("kept"));

    runner.execute(
        "CALL lakeops.system.remove_orphan_files(schema_name => 'db', table_name => 'kept', dry_run => true)");
    runner.execute(
        "CALL lakeops.system.maintain(schema_name => 'db', table_name => 'kept', skip_steps => ARRAY['orphans'])");

    assertThat(fileCount("kept")).isEqualTo(1);
    assertThat(runner.execute(CHECKSUM.formatted("kept"))).isEqualTo(before);
    assertThatThrownBy(
            () ->
                runner.execute(
                    "CALL lakeops.system.remove_orphan_files(schema_name => 'db', table_name => 'kept', older_than => '1h')"))
        .satisfies(failure -> assertThat(errorName(failure)).isEqualTo("LAKEOPS_INVALID_ARGUMENT"))
        .hasMessageContaining(
            "files written in the last 3d may belong to writes still in progress");
  }

  /**
   * Every procedure takes every argument of the procedure contract under its contract name, with
   * its engine type: NULL for each (the default applies) and true for each flag (a dry run).
   */
  @Test
  void everyProcedureTakesTheContractsArguments() {
    createFragmentedTable("contract", 3);
    MaterializedResult before = runner.execute(CHECKSUM.formatted("contract"));
    long snapshots = snapshotCount("contract");
    for (Operation operation : Operations.offeredOn(Host.TRINO)) {
      StringBuilder call =
          new StringBuilder("CALL lakeops.system.")
              .append(operation.name())
              .append("(schema_name => 'db', table_name => 'contract'");
      for (OperationArgument argument : operation.arguments(Host.TRINO)) {
        call.append(", ")
            .append(argument.spelling(Host.TRINO))
            .append(" => ")
            .append(nullOrTrue(argument.type()));
      }
      runner.execute(call.append(")").toString());
    }
    assertThat(snapshotCount("contract")).isEqualTo(snapshots);
    assertThat(runner.execute(CHECKSUM.formatted("contract"))).isEqualTo(before);
  }

  @Test
  void contractNamesReplaceNothingTrinoAlreadyTook() {
    createFragmentedTable("unified", 3);
    MaterializedResult before = runner.execute(CHECKSUM.formatted("unified"));
    runner.execute(
        """
        CALL lakeops.system.compact(
          schema_name => 'db', table_name => 'unified', strategy => 'zorder',
          zorder_columns => ARRAY['id', 'amount'], memory_budget => '64MB',
          spill_directory => '%s', options => MAP(ARRAY['rewrite-all'], ARRAY['true']))"""
            .formatted(directory));
    assertThat(fileCount("unified")).isEqualTo(1);
    assertThat(runner.execute(CHECKSUM.formatted("unified"))).isEqualTo(before);
    runner.execute(
        "CALL lakeops.system.remove_orphan_files(schema_name => 'db', table_name => 'unified',"
            + " older_than => '2000-01-01 00:00:00', max_concurrent_deletes => 2,"
            + " equal_schemes => MAP(ARRAY['s3a'], ARRAY['s3']), dry_run => true)");
  }

  @Test
  void nullListElementIsAnInvalidArgument() {
    createFragmentedTable("null_element", 2);
    assertThatThrownBy(
            () ->
                runner.execute(
                    "CALL lakeops.system.compact(schema_name => 'db', table_name => 'null_element',"
                        + " strategy => 'zorder', zorder_columns => ARRAY['id', NULL])"))
        .satisfies(failure -> assertThat(errorName(failure)).isEqualTo("LAKEOPS_INVALID_ARGUMENT"))
        .hasMessageContaining(
            "Argument 'zorder_columns' has a NULL element at position 2: remove it or pass a value");
    assertThatThrownBy(
            () ->
                runner.execute(
                    "CALL lakeops.system.expire_snapshots(schema_name => 'db',"
                        + " table_name => 'null_element', snapshot_ids => ARRAY[NULL, 1])"))
        .satisfies(failure -> assertThat(errorName(failure)).isEqualTo("LAKEOPS_INVALID_ARGUMENT"))
        .hasMessageContaining(
            "Argument 'snapshot_ids' has a NULL element at position 1: remove it or pass a value");
    assertThat(fileCount("null_element")).isEqualTo(2);
  }

  private static String nullOrTrue(ArgumentType type) {
    return switch (type) {
      case BOOLEAN -> "true";
      case TEXT, SIZE, CUTOFF -> "CAST(NULL AS VARCHAR)";
      case INTEGER -> "CAST(NULL AS BIGINT)";
      case TEXT_LIST -> "CAST(NULL AS ARRAY(VARCHAR))";
      case LONG_LIST -> "CAST(NULL AS ARRAY(BIGINT))";
      case TEXT_MAP -> "CAST(NULL AS MAP(VARCHAR, VARCHAR))";
    };
  }

  private void createFragmentedTable(String table, int inserts) {
    FragmentedTables.create(runner, table, inserts);
  }

  private void insertBatch(String table, int batch) {
    FragmentedTables.insertBatch(runner, table, batch);
  }

  private long fileCount(String table) {
    return FragmentedTables.fileCount(runner, table);
  }

  private long snapshotCount(String table) {
    return FragmentedTables.snapshotCount(runner, table);
  }

  static String errorName(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof TrinoException trino) {
        return trino.getErrorCode().getName();
      }
      if (cause instanceof Failure engineFailure
          && engineFailure.getFailureInfo().errorCode() != null) {
        return engineFailure.getFailureInfo().errorCode().getName();
      }
    }
    return "no TrinoException in " + failure;
  }
}
