package dev.lakeops.spark;

import static java.util.Objects.requireNonNull;

import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.compact.TableCompactor;
import org.apache.iceberg.Table;
import org.apache.spark.sql.classic.SparkSession;

/**
 * Runs one compaction for a Spark session, on the driver: resolves the table in the session's
 * Iceberg catalog configuration, calls the core, then refreshes Spark's cached copy of the table so
 * the next query reads the new snapshot.
 */
final class SparkTableCompaction {
  private final SparkSession spark;
  private final SessionIcebergCatalogs catalogs;
  private final TableCompactor compactor;

  SparkTableCompaction(SparkSession spark, SessionIcebergCatalogs catalogs, TableCompactor compactor) {
    this.spark = requireNonNull(spark, "spark is null");
    this.catalogs = requireNonNull(catalogs, "catalogs is null");
    this.compactor = requireNonNull(compactor, "compactor is null");
  }

  static SparkTableCompaction forActiveSession() {
    SparkSession spark = SparkSession.active();
    return new SparkTableCompaction(spark, new SessionIcebergCatalogs(spark), new TableCompactor());
  }

  CompactionResult compact(String tableName, CompactionRequest request) {
    requireNonNull(request, "request is null");
    SessionTableName name = catalogs.resolve(tableName);
    CompactionResult result;
    try (LoadedTable loaded = catalogs.load(name)) {
      Table table = loaded.table();
      result = compactor.compact(table, request);
    }
    if (!request.dryRun()) {
      spark.catalog().refreshTable(name.quoted());
    }
    return result;
  }
}
