package dev.lakeops.trino.system;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.BooleanType.BOOLEAN;
import static io.trino.spi.type.DateTimeEncoding.packDateTimeWithZone;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.TimestampWithTimeZoneType.TIMESTAMP_TZ_MILLIS;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.inject.Inject;
import dev.lakeops.ledger.LedgerWarnings;
import dev.lakeops.ledger.RunHost;
import dev.lakeops.ledger.RunLedger;
import dev.lakeops.ledger.RunQuery;
import dev.lakeops.ledger.RunRecord;
import dev.lakeops.trino.connector.CatalogBinding;
import dev.lakeops.trino.connector.LakeOpsErrorCode;
import dev.lakeops.trino.run.ProcedureRun;
import dev.lakeops.trino.run.ProcedureRunHistory;
import dev.lakeops.trino.run.RunLedgers;
import dev.lakeops.trino.run.RunMetric;
import dev.lakeops.trino.run.RunOutcome;
import io.trino.spi.TrinoException;
import io.trino.spi.classloader.ThreadContextClassLoader;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.ConnectorTableMetadata;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.InMemoryRecordSet;
import io.trino.spi.connector.RecordCursor;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.SystemTable;
import io.trino.spi.predicate.TupleDomain;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code SELECT * FROM lakeops.system.runs}: maintenance runs (CALLs return no rows, so this is
 * where their results are read), failed runs included. Without {@code lakeops.telemetry.store} it
 * lists the procedure runs of this coordinator, kept in memory. With it, it lists the run ledger in
 * that store, runs of every host (CLI, serve, Spark, Trino, Flink) alike, together with this
 * coordinator's runs the ledger does not hold ({@code health}, CALLs refused before running). A
 * user sees the runs on the tables Trino's access control lets them see.
 */
public final class RunsSystemTable implements SystemTable {
  public static final SchemaTableName NAME = new SchemaTableName("system", "runs");
  public static final String SUCCEEDED = "SUCCEEDED";
  public static final String FAILED = "FAILED";

  private static final ConnectorTableMetadata METADATA =
      new ConnectorTableMetadata(NAME, columns());

  private final ProcedureRunHistory history;
  private final RunLedgers ledgers;
  private final String catalogName;

  @Inject
  public RunsSystemTable(ProcedureRunHistory history, RunLedgers ledgers, CatalogBinding catalog) {
    this.history = requireNonNull(history, "history is null");
    this.ledgers = requireNonNull(ledgers, "ledgers is null");
    this.catalogName = requireNonNull(catalog, "catalog is null").trinoCatalogName();
  }

  private static List<ColumnMetadata> columns() {
    ImmutableList.Builder<ColumnMetadata> columns = ImmutableList.builder();
    columns.add(new ColumnMetadata("query_id", VARCHAR));
    columns.add(new ColumnMetadata("user", VARCHAR));
    columns.add(new ColumnMetadata("procedure", VARCHAR));
    columns.add(new ColumnMetadata("schema_name", VARCHAR));
    columns.add(new ColumnMetadata("table_name", VARCHAR));
    columns.add(new ColumnMetadata("started", TIMESTAMP_TZ_MILLIS));
    columns.add(new ColumnMetadata("seconds", DOUBLE));
    columns.add(new ColumnMetadata("status", VARCHAR));
    columns.add(new ColumnMetadata("dry_run", BOOLEAN));
    columns.add(new ColumnMetadata("strategy", VARCHAR));
    for (RunMetric metric : RunMetric.values()) {
      columns.add(new ColumnMetadata(metric.columnName(), BIGINT));
    }
    columns.add(new ColumnMetadata("summary", VARCHAR));
    columns.add(new ColumnMetadata("error", VARCHAR));
    columns.add(new ColumnMetadata("host", VARCHAR));
    columns.add(new ColumnMetadata("trigger_reason", VARCHAR));
    columns.add(new ColumnMetadata("catalog_name", VARCHAR));
    columns.add(new ColumnMetadata("run_id", VARCHAR));
    columns.add(new ColumnMetadata("finished", TIMESTAMP_TZ_MILLIS));
    return columns.build();
  }

  @Override
  public Distribution getDistribution() {
    return Distribution.SINGLE_COORDINATOR;
  }

  @Override
  public ConnectorTableMetadata getTableMetadata() {
    return METADATA;
  }

  @Override
  public RecordCursor cursor(
      ConnectorTransactionHandle transactionHandle,
      ConnectorSession session,
      TupleDomain<Integer> constraint,
      Set<Integer> requiredColumns,
      ConnectorSplit split,
      ConnectorAccessControl accessControl) {
    List<ProcedureRun> runs = history.runs();
    List<RunRecord> recorded = ledgers.configured() ? ledgerRuns() : List.of();
    if (ledgers.configured()) {
      runs = runs.stream().filter(run -> !run.inLedger()).toList();
    }
    Set<SchemaTableName> names = new HashSet<>();
    runs.forEach(run -> names.add(run.table()));
    recorded.forEach(run -> names.add(LedgerRunRows.tableName(run)));
    Set<SchemaTableName> visible = accessControl.filterTables(null, names);
    InMemoryRecordSet.Builder rows = InMemoryRecordSet.builder(METADATA);
    for (RunRecord run : recorded) {
      if (visible.contains(LedgerRunRows.tableName(run))) {
        rows.addRow(LedgerRunRows.row(run, session.getTimeZoneKey()).toArray());
      }
    }
    for (ProcedureRun run : runs) {
      if (visible.contains(run.table())) {
        rows.addRow(row(run, session).toArray());
      }
    }
    return rows.build().cursor();
  }

  private List<RunRecord> ledgerRuns() {
    try (ThreadContextClassLoader ignored =
            new ThreadContextClassLoader(getClass().getClassLoader());
        RunLedger ledger = ledgers.openForReading()) {
      return ledger.list(RunQuery.all());
    } catch (RuntimeException e) {
      throw new TrinoException(
          LakeOpsErrorCode.LAKEOPS_OPERATION_FAILED,
          "Cannot read lakeops.system.runs from the run ledger: "
              + LedgerWarnings.oneLine(e)
              + "; check "
              + RunLedgers.STORE_PROPERTY
              + " in the catalog file",
          e);
    }
  }

  private List<Object> row(ProcedureRun run, ConnectorSession session) {
    List<Object> row = new ArrayList<>();
    row.add(run.queryId());
    row.add(run.user());
    row.add(run.procedure());
    row.add(run.table().getSchemaName());
    row.add(run.table().getTableName());
    row.add(packDateTimeWithZone(run.started().toEpochMilli(), session.getTimeZoneKey()));
    row.add(run.elapsed().toNanos() / 1e9);
    row.add(run.succeeded() ? SUCCEEDED : FAILED);
    row.add(run.outcome().map(RunOutcome::dryRun).orElse(null));
    row.add(run.outcome().flatMap(RunOutcome::strategy).orElse(null));
    for (RunMetric metric : RunMetric.values()) {
      row.add(run.outcome().map(outcome -> outcome.metrics().get(metric)).orElse(null));
    }
    row.add(run.outcome().map(RunOutcome::summary).orElse(null));
    row.add(run.error().orElse(null));
    row.add(RunHost.TRINO.label());
    row.add(LedgerRunRows.reasonOf(run.user()));
    row.add(catalogName);
    row.add(null);
    row.add(
        packDateTimeWithZone(
            run.started().plus(run.elapsed()).toEpochMilli(), session.getTimeZoneKey()));
    return row;
  }
}
