package dev.lakeops.spark;

import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.compact.Strategy;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.spark.telemetry.TelemetrySettings;
import dev.lakeops.unit.ByteSize;
import java.util.Iterator;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.catalog.procedures.BoundProcedure;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;
import org.apache.spark.sql.connector.catalog.procedures.UnboundProcedure;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * {@code CALL lakeops.compact(table => 'cat.db.t', strategy => 'binpack', ...)}: declares the
 * arguments, turns them into a {@link CompactionRequest} and hands it to the core on the driver.
 */
public final class CompactProcedure implements UnboundProcedure, BoundProcedure {
  static final String NAME = "compact";

  static final ProcedureParameter TABLE = ProcedureParameter.in("table", DataTypes.StringType).build();
  static final ProcedureParameter STRATEGY =
      optional("strategy", DataTypes.StringType, "'binpack'", "binpack, sort, zorder or auto");
  static final ProcedureParameter SORT_ORDER =
      optional("sort_order", DataTypes.StringType, "NULL", "e.g. 'country ASC NULLS FIRST, ts DESC'");
  static final ProcedureParameter ZORDER_BY =
      optional("zorder_by", DataTypes.StringType, "NULL", "comma-separated columns, e.g. 'a, b'");
  static final ProcedureParameter WHERE =
      optional("where", DataTypes.StringType, "NULL", "rewrite only rows matching this filter");
  static final ProcedureParameter OPTIONS =
      optional(
          "options",
          DataTypes.createMapType(DataTypes.StringType, DataTypes.StringType),
          "NULL",
          "Iceberg rewrite_data_files options, e.g. map('target-file-size-bytes', '134217728')");
  static final ProcedureParameter MEMORY =
      optional("memory", DataTypes.StringType, "NULL", "memory budget, default 256MB");
  static final ProcedureParameter DRY_RUN =
      optional("dry_run", DataTypes.BooleanType, "false", "plan only, change nothing");

  private static final ProcedureParameter[] PARAMETERS = {
    TABLE, STRATEGY, SORT_ORDER, ZORDER_BY, WHERE, OPTIONS, MEMORY, DRY_RUN
  };

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "Compacts an Iceberg table's data files with the LakeOps engine on the driver";
  }

  @Override
  public BoundProcedure bind(StructType inputType) {
    return this;
  }

  @Override
  public ProcedureParameter[] parameters() {
    return PARAMETERS.clone();
  }

  @Override
  public boolean isDeterministic() {
    return false;
  }

  @Override
  public Iterator<Scan> call(InternalRow input) {
    ProcedureArguments arguments = new ProcedureArguments(PARAMETERS, input);
    String table = arguments.requiredString(TABLE);
    CompactionRequest request =
        CompactionRequest.builder()
            .strategy(arguments.parsed(STRATEGY, Strategy::parse).orElse(Strategy.BINPACK))
            .sortOrder(arguments.string(SORT_ORDER).orElse(null))
            .zorderColumns(arguments.list(ZORDER_BY))
            .where(arguments.string(WHERE).orElse(null))
            .options(arguments.map(OPTIONS))
            .memoryBudget(
                arguments
                    .parsed(MEMORY, ByteSize::parse)
                    .orElse(CompactionRequest.DEFAULT_MEMORY_BUDGET))
            .dryRun(arguments.booleanValue(DRY_RUN))
            .telemetryStore(sessionTelemetryStore())
            .build();
    CompactionResult result =
        SessionTableRunner.forActiveSession()
            .run(table, !request.dryRun(), loaded -> new TableCompactor().compact(loaded, request));
    return CompactResultScan.of(result);
  }

  /** {@code strategy => 'auto'} reads the store the session's telemetry listener writes to. */
  private static String sessionTelemetryStore() {
    return SparkSession.active().conf().get(TelemetrySettings.STORE, null);
  }

  private static ProcedureParameter optional(
      String name, DataType type, String defaultSql, String comment) {
    return ProcedureParameter.in(name, type).defaultValue(defaultSql).comment(comment).build();
  }
}
