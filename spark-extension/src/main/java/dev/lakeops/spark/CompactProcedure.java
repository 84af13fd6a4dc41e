package dev.lakeops.spark;

import dev.lakeops.advise.AdvisedCompactor;
import dev.lakeops.compact.CompactionListener;
import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.compact.Strategy;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.distribute.RemoteGroupExecution;
import dev.lakeops.lock.LockOptions;
import dev.lakeops.operation.Operations;
import dev.lakeops.plan.RewriteOptions;
import dev.lakeops.spark.executors.CompactExecution;
import dev.lakeops.spark.executors.ExecutorMemory;
import dev.lakeops.spark.executors.SparkGroupTaskSubmitter;
import dev.lakeops.spark.telemetry.TelemetrySettings;
import dev.lakeops.unit.ByteSize;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import org.apache.iceberg.Table;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.read.Scan;

/**
 * {@code CALL lakeops.compact(table => 'cat.db.t', strategy => 'binpack', ...)} with the arguments
 * of {@link Operations#COMPACT}: turns them into a {@link CompactionRequest} and hands it to the
 * core on the driver; with {@code execution => 'executors'} the driver plans and commits while each
 * file group is rewritten as a Spark task on the executors. {@code memory} and {@code zorder_by}
 * ('a, b') are deprecated spellings of {@code memory_budget} and {@code zorder_columns}.
 */
public final class CompactProcedure extends TableProcedure {
  static final String NAME = Operations.COMPACT.name();

  public CompactProcedure() {
    super(Operations.COMPACT);
  }

  @Override
  Iterator<Scan> call(ProcedureArguments arguments) {
    String table = arguments.requiredString(TABLE);
    CompactExecution execution =
        arguments.parsed("execution", CompactExecution::parse).orElse(CompactExecution.DRIVER);
    CompactionRequest.Builder builder =
        CompactionRequest.builder()
            .strategy(arguments.parsed("strategy", Strategy::parse).orElse(Strategy.BINPACK))
            .sortOrder(arguments.string("sort_order").orElse(null))
            .zorderColumns(arguments.stringsOrCommaSeparated("zorder_columns", "zorder_by"))
            .where(arguments.string("where").orElse(null))
            .options(arguments.map("options"))
            .memoryBudget(
                arguments
                    .parsedOrAlias(Operations.MEMORY_BUDGET, "memory", ByteSize::parse)
                    .orElse(CompactionRequest.DEFAULT_MEMORY_BUDGET))
            .verify(arguments.string(Operations.VERIFY).orElse(null))
            .dryRun(arguments.booleanValue(Operations.DRY_RUN))
            .telemetryStore(sessionTelemetryStore());
    arguments.string("spill_directory").map(Path::of).ifPresent(builder::spillDirectory);
    CompactionRequest request = builder.build();
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
                        listener ->
                            compact(
                                execution,
                                listener,
                                LockOptions.defaults().withLeaseStore(recorder.leaseStore()),
                                loaded,
                                executed)));
    return CompactResultScan.of(result);
  }

  /**
   * Compacts here ({@code driver}) or plans and commits here and rewrites each file group as a
   * Spark task ({@code executors}); the table's broadcast is removed when the compaction ends.
   */
  private static CompactionResult compact(
      CompactExecution execution,
      CompactionListener listener,
      LockOptions locks,
      Table table,
      CompactionRequest request) {
    if (execution != CompactExecution.EXECUTORS) {
      return new AdvisedCompactor(new TableCompactor(listener, locks)).compact(table, request);
    }
    SparkSession spark = SparkSession.active();
    ExecutorMemory memory = ExecutorMemory.parse(spark.conf().get(ExecutorMemory.KEY, null));
    try (SparkGroupTaskSubmitter submitter =
        new SparkGroupTaskSubmitter(
            JavaSparkContext.fromSparkContext(spark.sparkContext()), memory)) {
      return new AdvisedCompactor(
              new TableCompactor(listener, locks, new RemoteGroupExecution(submitter)))
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
}
