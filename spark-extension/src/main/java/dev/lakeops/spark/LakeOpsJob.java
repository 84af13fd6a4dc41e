package dev.lakeops.spark;

import static java.util.Objects.requireNonNull;

import dev.lakeops.operation.Host;
import dev.lakeops.operation.Operation;
import dev.lakeops.operation.Operations;
import java.io.PrintStream;
import java.io.PrintWriter;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code spark-submit} entry point, for teams that run maintenance as a Spark application of
 * its own:
 *
 * <pre>
 * spark-submit --class dev.lakeops.spark.LakeOpsJob lakeops-spark-runtime-4.1_2.13.jar \
 *   compact cat.db.events --strategy sort --sort-order "day, user_id" --execution executors
 * </pre>
 *
 * Every operation the Spark procedures offer is a command ({@code compact}, {@code
 * expire_snapshots}, {@code remove_orphan_files}, {@code rewrite_manifests}, {@code maintain},
 * {@code health}), built from the procedure contract ({@link JobCommand}): its flags are the CLI's
 * spellings of the procedure's arguments.
 *
 * <p>Tables are found through the session's Iceberg catalog settings ({@code
 * spark.sql.catalog.<name>.*}), exactly as {@code CALL lakeops.compact} finds them: the job runs
 * the procedure with the flags turned into its arguments and prints its result rows.
 */
@Command(
    name = "LakeOpsJob",
    description = "LakeOps maintenance as a Spark application.",
    mixinStandardHelpOptions = true)
public final class LakeOpsJob {
  private final SparkSession spark;
  private final PrintStream out;

  LakeOpsJob(SparkSession spark, PrintStream out) {
    this.spark = requireNonNull(spark, "spark is null");
    this.out = requireNonNull(out, "out is null");
  }

  SparkSession spark() {
    return spark;
  }

  PrintStream out() {
    return out;
  }

  public static void main(String[] args) {
    SparkSession spark =
        SparkSession.builder()
            .appName("LakeOps")
            .config("spark.sql.catalog.lakeops", LakeOpsProcedureCatalog.class.getName())
            .getOrCreate();
    int exitCode;
    try {
      exitCode = run(spark, System.out, System.err, args);
    } finally {
      spark.stop();
    }
    System.exit(exitCode);
  }

  /**
   * Runs one command in {@code spark}; returns the process exit code: 0 on success, 1 when the
   * command failed (its one-line message on {@code err}), 2 for flags picocli rejects.
   */
  static int run(SparkSession spark, PrintStream out, PrintStream err, String... args) {
    LakeOpsJob job = new LakeOpsJob(spark, out);
    CommandLine commandLine = new CommandLine(job);
    for (Operation operation : Operations.offeredOn(Host.SPARK)) {
      commandLine.addSubcommand(JobCommand.spec(job, operation));
    }
    commandLine.setErr(new PrintWriter(err, true));
    commandLine.setExecutionExceptionHandler(
        (failure, failed, parsed) -> {
          failed.getErr().println(failure.getMessage());
          return 1;
        });
    return commandLine.execute(args);
  }
}
