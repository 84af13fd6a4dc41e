package dev.lakeops.spark.executors;

import static java.util.Objects.requireNonNull;

import dev.lakeops.distribute.GroupTask;
import dev.lakeops.distribute.GroupTaskResult;
import dev.lakeops.distribute.GroupTaskSubmitter;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.iceberg.Table;
import org.apache.spark.api.java.JavaFutureAction;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * Runs each file group as a one-task Spark job on the session's executors. The table goes to the
 * executors once per compaction as a broadcast ({@link BroadcastTable}); a task carries only its
 * group (data files with their delete files) and settings (Spark retries a failed attempt up to
 * {@code spark.task.maxFailures} times, on another executor when one was lost). The driver's {@code
 * max-concurrent-file-group-rewrites} threads each wait for one job, so that many groups are in
 * flight; Spark runs as many of them at once as the executors have task slots.
 */
public final class SparkGroupTaskSubmitter implements GroupTaskSubmitter, AutoCloseable {
  private final JavaSparkContext spark;
  private final ExecutorMemory memory;

  /** The broadcast of each table the tasks carried, by identity: one per compaction. */
  private final Map<Table, BroadcastTable> broadcasts = new IdentityHashMap<>();

  public SparkGroupTaskSubmitter(JavaSparkContext spark, ExecutorMemory memory) {
    this.spark = requireNonNull(spark, "spark is null");
    this.memory = requireNonNull(memory, "memory is null");
  }

  @Override
  public GroupTaskResult submit(GroupTask task) {
    BroadcastTable table = broadcast(task.table());
    spark.setJobDescription("LakeOps compact: " + task.describe());
    JavaFutureAction<List<byte[]>> job =
        spark
            .parallelize(List.of(payload(task)), 1)
            .map(new ExecutorGroupRewrite(memory, table))
            .collectAsync();
    try {
      return JavaSerialization.fromBytes(job.get().get(0), GroupTaskResult.class);
    } catch (InterruptedException e) {
      job.cancel(true);
      Thread.currentThread().interrupt();
      throw new IllegalStateException(
          "Interrupted while waiting for " + task.describe() + "; its Spark job was cancelled", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException(
          "Rewriting " + task.describe() + " failed on the executors: " + rootMessage(e),
          e.getCause());
    }
  }

  /** What one task carries: the group and its settings, the table left to the broadcast. */
  static byte[] payload(GroupTask task) {
    return JavaSerialization.toBytesWithout(task, task.table());
  }

  private synchronized BroadcastTable broadcast(Table table) {
    return broadcasts.computeIfAbsent(table, shipped -> BroadcastTable.of(spark, shipped));
  }

  /** Removes the tables' broadcasts from the driver and the executors. */
  @Override
  public synchronized void close() {
    broadcasts.values().forEach(BroadcastTable::destroy);
    broadcasts.clear();
  }

  private static String rootMessage(Throwable failure) {
    Throwable cause = failure;
    while (cause.getCause() != null && cause.getCause() != cause) {
      cause = cause.getCause();
    }
    String message = String.valueOf(cause.getMessage());
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }
}
