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
import dev.lakeops.trino.run.ProcedureRun;
import dev.lakeops.trino.run.ProcedureRunHistory;
import dev.lakeops.trino.run.RunMetric;
import dev.lakeops.trino.run.RunOutcome;
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
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * {@code SELECT * FROM lakeops.system.runs}: the procedure runs of this coordinator (CALLs return
 * no rows, so this is where their results are read), oldest first, failed runs included. A user
 * sees the runs on the tables Trino's access control lets them see.
 */
public final class RunsSystemTable implements SystemTable {
  public static final SchemaTableName NAME = new SchemaTableName("system", "runs");
  public static final String SUCCEEDED = "SUCCEEDED";
  public static final String FAILED = "FAILED";

  private static final ConnectorTableMetadata METADATA = new ConnectorTableMetadata(NAME, columns());

  private final ProcedureRunHistory history;

  @Inject
  public RunsSystemTable(ProcedureRunHistory history) {
    this.history = requireNonNull(history, "history is null");
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
    Set<SchemaTableName> visible =
        accessControl.filterTables(null, runs.stream().map(ProcedureRun::table).collect(Collectors.toSet()));
    InMemoryRecordSet.Builder rows = InMemoryRecordSet.builder(METADATA);
    for (ProcedureRun run : runs) {
      if (visible.contains(run.table())) {
        rows.addRow(row(run, session).toArray());
      }
    }
    return rows.build().cursor();
  }

  private static List<Object> row(ProcedureRun run, ConnectorSession session) {
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
    return row;
  }
}
