package dev.lakeops.spark;

import dev.lakeops.compact.CompactionListener;
import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.compact.Strategy;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.distribute.RemoteGroupExecution;
import dev.lakeops.lock.LockOptions;
import dev.lakeops.plan.RewriteOptions;
import dev.lakeops.spark.executors.CompactExecution;
import dev.lakeops.spark.executors.ExecutorMemory;
import dev.lakeops.spark.executors.SparkGroupTaskSubmitter;
import dev.lakeops.spark.telemetry.TelemetrySettings;
import dev.lakeops.unit.ByteSize;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import org.apache.iceberg.Table;
import org.apache.spark.api.java.JavaSparkContext;
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
 * arguments, turns them into a {@link CompactionRequest} and hands it to the core on the driver;
 * with {@code execution => 'executors'} the driver plans and commits while each file group is
 * rewritten as a Spark task on the executors.
 */
public final class CompactProcedure implements UnboundProcedure, BoundProcedure {
  static final String NAME = "compact";

  static final ProcedureParameter TABLE =
      ProcedureParameter.in("table", DataTypes.StringType).build();
  static final ProcedureParameter STRATEGY =
      optional("strategy", DataTypes.StringType, "'binpack'", "binpack, sort, zorder or auto");
  static final ProcedureParameter SORT_ORDER =
      optional(
          "sort_order", DataTypes.StringType, "NULL", "e.g. 'country ASC NULLS FIRST, ts DESC'");
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
  static final ProcedureParameter EXECUTION =
      optional(
          "execution",
          DataTypes.StringType,
          "'driver'",
          "where file groups are rewritten: 'driver' or 'executors' (Spark tasks)");

  private static final ProcedureParameter[] PARAMETERS = {
    TABLE, STRATEGY, SORT_ORDER, ZORDER_BY, WHERE, OPTIONS, MEMORY, DRY_RUN, EXECUTION
  };

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "Compacts an Iceberg table's data files with the LakeOps engine, on the driver or the executors";
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
    CompactExecution execution =
        arguments.parsed(EXECUTION, CompactExecution::parse).orElse(CompactExecution.DRIVER);
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
    CompactionRequest executed =
        execution == CompactExecution.EXECUTORS ? withExecutorConcurrency(request) : request;
    CompactionResult result =
        SessionTableRunner.forActiveSession()
            .run(
                table,
                !request.dryRun(),
                request.dryRun(),
                (loaded, recorder) ->
                    recorder.compact(
                        CompactionListener.NONE,
                        listener -> compact(execution, listener, loaded, executed)));
    return CompactResultScan.of(result);
  }

  /**
   * Compacts here ({@code driver}) or plans and commits here and rewrites each file group as a
   * Spark task ({@code executors}); the table's broadcast is removed when the compaction ends.
   */
  private static CompactionResult compact(
      CompactExecution execution,
      CompactionListener listener,
      Table table,
      CompactionRequest request) {
    if (execution != CompactExecution.EXECUTORS) {
      return new TableCompactor(listener).compact(table, request);
    }
    SparkSession spark = SparkSession.active();
    ExecutorMemory memory = ExecutorMemory.parse(spark.conf().get(ExecutorMemory.KEY, null));
    try (SparkGroupTaskSubmitter submitter =
        new SparkGroupTaskSubmitter(
            JavaSparkContext.fromSparkContext(spark.sparkContext()), memory)) {
      return new TableCompactor(
              listener, LockOptions.defaults(), new RemoteGroupExecution(submitter))
          .compact(table, request);
    }
  }

  /**
   * Without {@code max-concurrent-file-group-rewrites}, as many groups are in flight as the
   * executors have cores ({@code defaultParallelism}); Spark queues the rest.
   */
  private static CompactionRequest withExecutorConcurrency(CompactionRequest request) {
    if (request.options().containsKey(RewriteOptions.MAX_CONCURRENT_FILE_GROUP_REWRITES)) {
      return request;
    }
    Map<String, String> options = new HashMap<>(request.options());
    options.put(
        RewriteOptions.MAX_CONCURRENT_FILE_GROUP_REWRITES,
        String.valueOf(Math.max(1, SparkSession.active().sparkContext().defaultParallelism())));
    return request.toBuilder().options(options).build();
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
