package dev.lakeops.spark;

import static java.util.Objects.requireNonNull;

import dev.lakeops.ledger.RunHost;
import dev.lakeops.ledger.RunLedger;
import dev.lakeops.runs.HostRunLedger;
import dev.lakeops.runs.RunRecorder;
import dev.lakeops.spark.telemetry.TelemetrySettings;
import java.time.ZoneId;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.apache.iceberg.Table;
import org.apache.spark.sql.classic.SparkSession;

/**
 * Runs one core operation on a table named in a Spark session, on the driver: resolves the name in
 * the session's Iceberg catalog configuration, loads the table, runs the operation, closes the
 * catalog, and (when the operation may change the table) refreshes Spark's cached copy so the next
 * query reads the new snapshot, also after a step that failed half way.
 */
final class SessionTableRunner {
  private final SparkSession spark;
  private final SessionIcebergCatalogs catalogs;

  SessionTableRunner(SparkSession spark, SessionIcebergCatalogs catalogs) {
    this.spark = requireNonNull(spark, "spark is null");
    this.catalogs = requireNonNull(catalogs, "catalogs is null");
  }

  static SessionTableRunner forActiveSession() {
    SparkSession spark = SparkSession.active();
    return new SessionTableRunner(spark, new SessionIcebergCatalogs(spark));
  }

  /** The active session's time zone, in which a timestamp argument without offset is read. */
  static ZoneId sessionTimeZone() {
    return ZoneId.of(SparkSession.active().sessionState().conf().sessionLocalTimeZone());
  }

  <R> R run(String tableName, boolean changesTable, Function<Table, R> operation) {
    requireNonNull(operation, "operation is null");
    return run(tableName, changesTable, false, (table, recorder) -> operation.apply(table));
  }

  /**
   * As {@link #run(String, boolean, Function)}, and hands the operation a {@link RunRecorder} that
   * records each run in the run ledger of {@link TelemetrySettings#STORE} (host {@code spark},
   * reason {@code CALL by <user>}); without that setting it records nothing.
   */
  <R> R run(
      String tableName,
      boolean changesTable,
      boolean dryRun,
      BiFunction<Table, RunRecorder, R> operation) {
    requireNonNull(operation, "operation is null");
    SessionTableName name = catalogs.resolve(tableName);
    R result;
    LoadedTable loaded = catalogs.load(name);
    try (loaded;
        RunLedger ledger =
            HostRunLedger.open(
                Optional.ofNullable(spark.conf().get(TelemetrySettings.STORE, null)),
                TelemetrySettings.STORE)) {
      RunRecorder recorder =
          new RunRecorder(
              ledger,
              name.catalog(),
              ledgerTableName(name),
              RunHost.SPARK,
              "CALL by " + spark.sparkContext().sparkUser(),
              dryRun);
      result = operation.apply(loaded.table(), recorder);
    } catch (RuntimeException e) {
      if (changesTable) {
        // A step of maintain may have committed before a later one failed.
        try {
          refresh(name);
        } catch (RuntimeException refreshFailure) {
          e.addSuppressed(refreshFailure);
        }
      }
      throw e;
    }
    if (changesTable) {
      refresh(name);
    }
    return result;
  }

  /** {@code namespace.table}, as the run ledger names tables. */
  private static String ledgerTableName(SessionTableName name) {
    return String.join(".", name.namespace()) + "." + name.table();
  }

  private void refresh(SessionTableName name) {
    spark.catalog().refreshTable(name.quoted());
  }
}
