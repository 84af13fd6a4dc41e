package dev.lakeops.trino.engine;

import io.trino.testing.QueryRunner;

/** Tables written through Trino's Iceberg connector, one small data file per INSERT of ten rows. */
final class FragmentedTables {
  static final int ROWS_PER_INSERT = 10;

  private FragmentedTables() {}

  static void create(QueryRunner runner, String table, int inserts) {
    runner.execute(
        "CREATE TABLE " + table + " (id BIGINT, country VARCHAR, amount DOUBLE, note VARCHAR)");
    for (int batch = 0; batch < inserts; batch++) {
      insertBatch(runner, table, batch);
    }
  }

  static void insertBatch(QueryRunner runner, String table, int batch) {
    runner.execute(
        "INSERT INTO "
            + table
            + " SELECT "
            + batch
            + " * 10 + n, IF(n % 2 = 0, 'NL', 'DE'), n * 1.5, "
            + "IF(n % 3 = 0, NULL, 'note ' || CAST(n AS VARCHAR)) FROM UNNEST(sequence(0, 9)) AS t(n)");
  }

  static long fileCount(QueryRunner runner, String table) {
    return (long) runner.execute("SELECT count(*) FROM \"" + table + "$files\"").getOnlyValue();
  }

  static long fileBytes(QueryRunner runner, String table) {
    return (long)
        runner
            .execute("SELECT sum(file_size_in_bytes) FROM \"" + table + "$files\"")
            .getOnlyValue();
  }

  static long snapshotCount(QueryRunner runner, String table) {
    return (long) runner.execute("SELECT count(*) FROM \"" + table + "$snapshots\"").getOnlyValue();
  }

  static long currentSnapshotId(QueryRunner runner, String table) {
    return (long)
        runner
            .execute(
                "SELECT snapshot_id FROM \""
                    + table
                    + "$snapshots\" ORDER BY committed_at DESC LIMIT 1")
            .getOnlyValue();
  }
}
