package dev.lakeops.spark.executors;

import static java.util.Objects.requireNonNull;

import dev.lakeops.distribute.GroupTask;
import dev.lakeops.distribute.GroupTaskResult;
import dev.lakeops.distribute.GroupTaskRunner;
import dev.lakeops.distribute.TaskAttempt;
import java.io.File;
import java.io.IOException;
import java.io.Serial;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkEnv;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.Function;

/**
 * Runs on an executor: rewrites one {@link GroupTask} (Java-serialized, see {@link
 * JavaSerialization}, its table taken from the job's {@link BroadcastTable}) with the LakeOps core,
 * under this task's share of the executor's budget ({@link ExecutorMemory}), spilling only into a
 * directory of its own under one of the executor's local directories (the block manager's, i.e.
 * {@code spark.local.dir} / {@code SPARK_LOCAL_DIRS} / the cluster manager's), which is deleted
 * when the task ends. Output file names carry the Spark task attempt id.
 */
final class ExecutorGroupRewrite implements Function<byte[], byte[]> {
  @Serial private static final long serialVersionUID = 1L;

  private final ExecutorMemory memory;
  private final BroadcastTable table;

  ExecutorGroupRewrite(ExecutorMemory memory, BroadcastTable table) {
    this.memory = requireNonNull(memory, "memory is null");
    this.table = requireNonNull(table, "table is null");
  }

  @Override
  public byte[] call(byte[] taskBytes) throws IOException {
    GroupTask task = JavaSerialization.fromBytes(taskBytes, GroupTask.class, table::table);
    TaskContext context = TaskContext.get();
    String tag = "attempt-" + context.taskAttemptId();
    Path spillDirectory =
        Files.createDirectories(localDirectory(tag).toPath().resolve("lakeops-spill-" + tag));
    try {
      GroupTaskResult result =
          GroupTaskRunner.run(
              task,
              new TaskAttempt(
                  tag,
                  memory.taskShare(Runtime.getRuntime().maxMemory(), taskSlots(context)),
                  spillDirectory));
      return JavaSerialization.toBytes(result);
    } finally {
      deleteRecursively(spillDirectory);
    }
  }

  /** Tasks this executor runs at once: {@code spark.executor.cores / spark.task.cpus}. */
  private static int taskSlots(TaskContext context) {
    SparkConf conf = SparkEnv.get().conf();
    int cores = conf.getInt("spark.executor.cores", Runtime.getRuntime().availableProcessors());
    return Math.max(1, cores / Math.max(1, context.cpus()));
  }

  private static File localDirectory(String tag) {
    File[] directories = SparkEnv.get().blockManager().diskBlockManager().localDirs();
    if (directories.length == 0) {
      throw new IllegalStateException(
          "The executor has no local directory to spill to: set spark.local.dir");
    }
    return directories[Math.floorMod(tag.hashCode(), directories.length)];
  }

  private static void deleteRecursively(Path directory) {
    try (Stream<Path> paths = Files.walk(directory)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot delete spill directory " + directory, e);
    }
  }
}
