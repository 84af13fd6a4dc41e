package dev.lakeops.spark;

import dev.lakeops.compact.CompactionResult;
import dev.lakeops.distribute.RemoteGroupExecution;
import dev.lakeops.operation.HostSettings;
import dev.lakeops.operation.OperationArguments;
import dev.lakeops.operation.Operations;
import dev.lakeops.operation.call.CompactCall;
import dev.lakeops.operation.call.RunSettings;
import dev.lakeops.plan.RewriteOptions;
import dev.lakeops.spark.executors.CompactExecution;
import dev.lakeops.spark.executors.ExecutorMemory;
import dev.lakeops.spark.executors.SparkGroupTaskSubmitter;
import dev.lakeops.spark.telemetry.TelemetrySettings;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.iceberg.Table;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.read.Scan;

/**
 * {@code CALL lakeops.compact(table => 'cat.db.t', strategy => 'binpack', ...)} with the arguments
 * of {@link Operations#COMPACT}: binds them ({@link CompactCall}) and runs the compaction on the
 * driver; with {@code execution => 'executors'} the driver plans and commits while each file group
 * is rewritten as a Spark task on the executors. {@code memory} and {@code zorder_by} ('a, b') are
 * deprecated spellings of {@code memory_budget} and {@code zorder_columns}.
 */
public final class CompactProcedure extends TableProcedure {
  static final String NAME = Operations.COMPACT.name();

  public CompactProcedure() {
    super(Operations.COMPACT);
  }

  @Override
  Iterator<Scan> call(ProcedureArguments arguments) {
    CompactExecution execution =
        arguments.parsed("execution", CompactExecution::parse).orElse(CompactExecution.DRIVER);
    OperationArguments given =
        contractArguments(arguments, Operations.COMPACT)
            .with(HostSettings.TELEMETRY_STORE, sessionTelemetryStore());
    CompactCall call =
        CompactCall.bind(
            execution == CompactExecution.EXECUTORS ? withExecutorConcurrency(given) : given);
    CompactionResult result =
        SessionTableRunner.forActiveSession()
            .run(
                arguments.requiredString(TABLE),
                !call.dryRun(),
                call.dryRun(),
                (loaded, recorder) ->
                    compact(execution, call, loaded, RunSettings.recordedBy(recorder)));
    return CompactResultScan.of(result);
  }

  /**
   * Compacts here ({@code driver}) or plans and commits here and rewrites each file group as a
   * Spark task ({@code executors}); the table's broadcast is removed when the compaction ends.
   */
  private static CompactionResult compact(
      CompactExecution execution, CompactCall call, Table table, RunSettings settings) {
    if (execution != CompactExecution.EXECUTORS) {
      return call.run(table, settings).result();
    }
    SparkSession spark = SparkSession.active();
    ExecutorMemory memory = ExecutorMemory.parse(spark.conf().get(ExecutorMemory.KEY, null));
    try (SparkGroupTaskSubmitter submitter =
        new SparkGroupTaskSubmitter(
            JavaSparkContext.fromSparkContext(spark.sparkContext()), memory)) {
      return call.run(table, settings.withGroupExecution(new RemoteGroupExecution(submitter)))
          .result();
    }
  }

  /**
   * Without {@code max-concurrent-file-group-rewrites}, as many groups are in flight as the
   * executors have cores ({@code defaultParallelism}); Spark queues the rest.
   */
  private static OperationArguments withExecutorConcurrency(OperationArguments given) {
    Map<Object, Object> options = new LinkedHashMap<>();
    given.value("options").ifPresent(value -> options.putAll((Map<?, ?>) value));
    options.putIfAbsent(
        RewriteOptions.MAX_CONCURRENT_FILE_GROUP_REWRITES,
        String.valueOf(Math.max(1, SparkSession.active().sparkContext().defaultParallelism())));
    return given.with("options", options);
  }

  /** {@code strategy => 'auto'} reads the store the session's telemetry listener writes to. */
  private static String sessionTelemetryStore() {
    return SparkSession.active().conf().get(TelemetrySettings.STORE, null);
  }
}
