package dev.lakeops.telemetry.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * Brings a store's schema to the latest version, recording each applied step in {@code
 * telemetry_schema_version}. Runs in one transaction; on PostgreSQL an advisory lock keeps two
 * engines starting at once from migrating together. On SQLite two processes that create the same
 * new file at the same instant serialize on its write lock; the loser may fail to open with a busy
 * error and succeeds when opened again.
 */
final class SchemaMigrator {
  static final String VERSION_TABLE = "telemetry_schema_version";

  /** Arbitrary key of the PostgreSQL advisory lock held while migrating. */
  static final long POSTGRESQL_MIGRATION_LOCK = 0x1a4e0b5L;

  static final List<SchemaMigration> MIGRATIONS =
      List.of(
          new SchemaMigration(
              1,
              "events and column references",
              List.of(
                  """
                  CREATE TABLE telemetry_event (
                    event_id VARCHAR(36) PRIMARY KEY,
                    engine TEXT NOT NULL,
                    catalog_name TEXT NOT NULL,
                    namespace_name TEXT NOT NULL,
                    table_name TEXT NOT NULL,
                    query_id TEXT NOT NULL,
                    occurred_at_millis BIGINT NOT NULL,
                    bytes_scanned BIGINT,
                    rows_scanned BIGINT)""",
                  """
                  CREATE INDEX telemetry_event_by_table_and_time ON telemetry_event
                    (catalog_name, namespace_name, table_name, occurred_at_millis)""",
                  "CREATE INDEX telemetry_event_by_time ON telemetry_event (occurred_at_millis)",
                  """
                  CREATE TABLE telemetry_column_use (
                    event_id VARCHAR(36) NOT NULL,
                    occurred_at_millis BIGINT NOT NULL,
                    column_name TEXT NOT NULL,
                    clause VARCHAR(16) NOT NULL,
                    predicate_kind VARCHAR(16))""",
                  "CREATE INDEX telemetry_column_use_by_event ON telemetry_column_use (event_id)",
                  """
                  CREATE INDEX telemetry_column_use_by_time ON telemetry_column_use
                    (occurred_at_millis)""")),
          new SchemaMigration(
              2,
              "run ledger",
              List.of(
                  """
                  CREATE TABLE lakeops_run (
                    run_id VARCHAR(36) PRIMARY KEY,
                    catalog_name TEXT NOT NULL,
                    table_name TEXT NOT NULL,
                    operation VARCHAR(32) NOT NULL,
                    trigger_reason TEXT NOT NULL,
                    host VARCHAR(16) NOT NULL,
                    process TEXT NOT NULL,
                    dry_run SMALLINT NOT NULL,
                    started_at_millis BIGINT NOT NULL,
                    finished_at_millis BIGINT,
                    status VARCHAR(16) NOT NULL,
                    error TEXT,
                    input_files BIGINT,
                    output_files BIGINT,
                    input_bytes BIGINT,
                    output_bytes BIGINT,
                    removed_delete_files BIGINT,
                    recompacted_bytes BIGINT,
                    peak_memory_bytes BIGINT,
                    snapshot_id BIGINT)""",
                  """
                  CREATE INDEX lakeops_run_by_table_and_time ON lakeops_run
                    (catalog_name, table_name, started_at_millis)""",
                  "CREATE INDEX lakeops_run_by_time ON lakeops_run (started_at_millis)",
                  "CREATE INDEX lakeops_run_by_status ON lakeops_run (status)")),
          new SchemaMigration(
              3,
              "table identity: the UUID and location of the table an event read",
              List.of(
                  "ALTER TABLE telemetry_event ADD COLUMN table_uuid VARCHAR(36)",
                  "ALTER TABLE telemetry_event ADD COLUMN table_location TEXT",
                  """
                  CREATE INDEX telemetry_event_by_uuid_and_time ON telemetry_event
                    (table_uuid, occurred_at_millis)""",
                  """
                  CREATE INDEX telemetry_event_by_namespace_table_and_time ON telemetry_event
                    (namespace_name, table_name, occurred_at_millis)""")),
          new SchemaMigration(
              4,
              "health samples and run plans",
              List.of(
                  """
                  CREATE TABLE lakeops_health_sample (
                    catalog_name TEXT NOT NULL,
                    table_name TEXT NOT NULL,
                    sampled_at_millis BIGINT NOT NULL,
                    health_score INTEGER NOT NULL,
                    worst_part TEXT NOT NULL,
                    data_files BIGINT NOT NULL,
                    small_files BIGINT NOT NULL,
                    delete_files BIGINT NOT NULL,
                    data_bytes BIGINT NOT NULL)""",
                  """
                  CREATE INDEX lakeops_health_sample_by_table_and_time ON lakeops_health_sample
                    (catalog_name, table_name, sampled_at_millis)""",
                  """
                  CREATE INDEX lakeops_health_sample_by_time ON lakeops_health_sample
                    (sampled_at_millis)""",
                  """
                  CREATE TABLE lakeops_run_plan (
                    run_id VARCHAR(36) PRIMARY KEY,
                    catalog_name TEXT NOT NULL,
                    table_name TEXT NOT NULL,
                    rewrite_path VARCHAR(16) NOT NULL,
                    cores INTEGER NOT NULL,
                    memory_share_bytes BIGINT NOT NULL,
                    max_concurrent_groups INTEGER NOT NULL,
                    partial_progress SMALLINT NOT NULL,
                    predicted_seconds DOUBLE PRECISION NOT NULL,
                    predicted_peak_memory_bytes BIGINT NOT NULL,
                    learned SMALLINT NOT NULL,
                    commit_conflicts BIGINT)""",
                  """
                  CREATE INDEX lakeops_run_plan_by_table ON lakeops_run_plan
                    (catalog_name, table_name)""")),
          new SchemaMigration(
              5,
              "commit conflicts and retries of runs",
              List.of(
                  "ALTER TABLE lakeops_run ADD COLUMN commit_conflicts BIGINT",
                  "ALTER TABLE lakeops_run ADD COLUMN commit_retries BIGINT")),
          new SchemaMigration(
              6,
              "object storage requests, bytes, requests in flight and CPU time of runs",
              List.of(
                  "ALTER TABLE lakeops_run ADD COLUMN object_get_requests BIGINT",
                  "ALTER TABLE lakeops_run ADD COLUMN object_put_requests BIGINT",
                  "ALTER TABLE lakeops_run ADD COLUMN object_head_requests BIGINT",
                  "ALTER TABLE lakeops_run ADD COLUMN object_list_requests BIGINT",
                  "ALTER TABLE lakeops_run ADD COLUMN object_delete_requests BIGINT",
                  "ALTER TABLE lakeops_run ADD COLUMN object_other_requests BIGINT",
                  "ALTER TABLE lakeops_run ADD COLUMN object_bytes_read BIGINT",
                  "ALTER TABLE lakeops_run ADD COLUMN object_bytes_written BIGINT",
                  "ALTER TABLE lakeops_run ADD COLUMN requests_in_flight_peak BIGINT",
                  "ALTER TABLE lakeops_run ADD COLUMN requests_in_flight_mean DOUBLE PRECISION",
                  "ALTER TABLE lakeops_run ADD COLUMN cpu_seconds DOUBLE PRECISION")),
          new SchemaMigration(
              7,
              "verification mode, verified rows and verification failures of compaction runs",
              List.of(
                  "ALTER TABLE lakeops_run ADD COLUMN verification VARCHAR(16)",
                  "ALTER TABLE lakeops_run ADD COLUMN verified_rows BIGINT",
                  "ALTER TABLE lakeops_run ADD COLUMN verification_failures BIGINT")),
          new SchemaMigration(
              8,
              "serve members, table owners and suspended operations",
              List.of(
                  """
                  CREATE TABLE lakeops_member (
                    member_id VARCHAR(160) PRIMARY KEY,
                    catalog_name VARCHAR(512) NOT NULL,
                    host VARCHAR(255) NOT NULL,
                    pid BIGINT NOT NULL,
                    process VARCHAR(300) NOT NULL,
                    started_at_millis BIGINT NOT NULL,
                    heartbeat_at_millis BIGINT NOT NULL,
                    lease_millis BIGINT NOT NULL)""",
                  "CREATE INDEX lakeops_member_by_catalog ON lakeops_member (catalog_name)",
                  """
                  CREATE TABLE lakeops_table_owner (
                    catalog_name VARCHAR(512) NOT NULL,
                    table_name VARCHAR(1024) NOT NULL,
                    member_id VARCHAR(160) NOT NULL,
                    since_millis BIGINT NOT NULL,
                    PRIMARY KEY (catalog_name, table_name))""",
                  """
                  CREATE TABLE lakeops_suspension (
                    catalog_name VARCHAR(512) NOT NULL,
                    table_name VARCHAR(1024) NOT NULL,
                    operation VARCHAR(32) NOT NULL,
                    failures INTEGER NOT NULL,
                    last_error TEXT NOT NULL,
                    suspended_at_millis BIGINT,
                    snapshot_id BIGINT,
                    policy_fingerprint VARCHAR(64),
                    PRIMARY KEY (catalog_name, table_name, operation))""")));

  static final int LATEST_VERSION = MIGRATIONS.get(MIGRATIONS.size() - 1).version();

  private SchemaMigrator() {}

  /** Applies missing migrations and returns the schema version now in force. */
  static int migrate(Connection connection, StoreKind kind) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      if (kind == StoreKind.POSTGRESQL) {
        statement.execute("SELECT pg_advisory_xact_lock(" + POSTGRESQL_MIGRATION_LOCK + ")");
      }
      statement.execute(
          "CREATE TABLE IF NOT EXISTS "
              + VERSION_TABLE
              + " (version INTEGER PRIMARY KEY, description TEXT NOT NULL,"
              + " applied_at_millis BIGINT NOT NULL)");
      int current = currentVersion(statement);
      if (current > LATEST_VERSION) {
        throw new TelemetryStoreException(
            "Telemetry store schema is at version "
                + current
                + " but this LakeOps knows versions up to "
                + LATEST_VERSION
                + ": upgrade LakeOps before writing to this store");
      }
      for (SchemaMigration migration : MIGRATIONS) {
        if (migration.version() > current) {
          apply(connection, statement, migration);
        }
      }
      connection.commit();
      return LATEST_VERSION;
    } catch (SQLException | RuntimeException e) {
      connection.rollback();
      throw e;
    }
  }

  static int currentVersion(Statement statement) throws SQLException {
    try (ResultSet result = statement.executeQuery("SELECT MAX(version) FROM " + VERSION_TABLE)) {
      result.next();
      return result.getInt(1);
    }
  }

  private static void apply(Connection connection, Statement statement, SchemaMigration migration)
      throws SQLException {
    for (String sql : migration.statements()) {
      statement.execute(sql);
    }
    try (PreparedStatement insert =
        connection.prepareStatement(
            "INSERT INTO "
                + VERSION_TABLE
                + " (version, description, applied_at_millis) VALUES (?, ?, ?)")) {
      insert.setInt(1, migration.version());
      insert.setString(2, migration.description());
      insert.setLong(3, System.currentTimeMillis());
      insert.executeUpdate();
    }
  }
}
