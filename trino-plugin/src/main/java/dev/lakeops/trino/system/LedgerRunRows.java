package dev.lakeops.trino.system;

import static io.trino.spi.type.DateTimeEncoding.packDateTimeWithZone;

import dev.lakeops.ledger.RunRecord;
import dev.lakeops.runs.RunFields;
import dev.lakeops.trino.run.RunMetric;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.type.TimeZoneKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A run ledger row as a row of {@code lakeops.system.runs}. The ledger's figures fill the metric
 * columns of the same name ({@link RunFields#figures}); what the ledger does not hold (query id,
 * user, strategy, summary, the other metrics) is null. The procedure is the ledger's operation in
 * procedure spelling ({@code expire-snapshots} is {@code expire_snapshots}), the status its label
 * in capitals.
 */
final class LedgerRunRows {
  private LedgerRunRows() {}

  /** The reason a Trino CALL records: {@code CALL by <user>}. */
  static String reasonOf(String user) {
    return "CALL by " + user;
  }

  /**
   * {@code namespace.table} of the ledger as Trino's schema and table: the last dot splits them.
   */
  static SchemaTableName tableName(RunRecord run) {
    String table = run.table();
    int dot = table.lastIndexOf('.');
    return dot < 0
        ? new SchemaTableName("", table)
        : new SchemaTableName(table.substring(0, dot), table.substring(dot + 1));
  }

  static List<Object> row(RunRecord run, TimeZoneKey zone) {
    SchemaTableName name = tableName(run);
    Map<String, Object> figures = RunFields.figures(run.figures());
    List<Object> row = new ArrayList<>();
    row.add(null);
    row.add(null);
    row.add(run.operation().replace('-', '_'));
    row.add(name.getSchemaName());
    row.add(name.getTableName());
    row.add(packDateTimeWithZone(run.started().toEpochMilli(), zone));
    row.add(run.elapsed().map(elapsed -> elapsed.toNanos() / 1e9).orElse(null));
    row.add(run.status().name());
    row.add(run.start().dryRun());
    row.add(null);
    for (RunMetric metric : RunMetric.values()) {
      row.add(figures.get(metric.columnName()) instanceof Number value ? value.longValue() : null);
    }
    row.add(null);
    row.add(run.error().orElse(null));
    row.add(run.start().host().label());
    row.add(run.start().reason());
    row.add(run.start().catalog());
    row.add(run.runId());
    row.add(
        run.finished()
            .map(finished -> packDateTimeWithZone(finished.toEpochMilli(), zone))
            .orElse(null));
    return row;
  }
}
