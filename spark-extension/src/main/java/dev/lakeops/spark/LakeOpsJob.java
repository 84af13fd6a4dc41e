package dev.lakeops.spark;

import static java.util.Objects.requireNonNull;

import dev.lakeops.plan.RewriteOptions;
import dev.lakeops.unit.ByteSize;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructField;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The {@code spark-submit} entry point, for teams that run maintenance as a Spark application of
 * its own:
 *
 * <pre>
 * spark-submit --class dev.lakeops.spark.LakeOpsJob lakeops-spark-runtime-4.1_2.13.jar \
 *   compact cat.db.events --strategy sort --sort-order "day, user_id" --execution executors
 * </pre>
 *
 * The other maintenance commands ({@code expire_snapshots}, {@code remove_orphan_files}, {@code
 * rewrite_manifests}, {@code maintain}) take the CLI's flags the same way ({@link
 * JobMaintenanceCommands}).
 *
 * <p>Tables are found through the session's Iceberg catalog settings ({@code
 * spark.sql.catalog.<name>.*}), exactly as {@code CALL lakeops.compact} finds them: the job runs
 * that procedure with the flags turned into its arguments and prints its result row.
 */
@Command(
    name = "LakeOpsJob",
    description = "LakeOps maintenance as a Spark application.",
    mixinStandardHelpOptions = true,
    subcommands = {
      LakeOpsJob.Compact.class,
      JobMaintenanceCommands.ExpireSnapshots.class,
      JobMaintenanceCommands.RemoveOrphanFiles.class,
      JobMaintenanceCommands.RewriteManifests.class,
      JobMaintenanceCommands.Maintain.class
    })
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
    CommandLine commandLine = new CommandLine(new LakeOpsJob(spark, out));
    commandLine.setErr(new PrintWriter(err, true));
    commandLine.setExecutionExceptionHandler(
        (failure, failed, parsed) -> {
          failed.getErr().println(failure.getMessage());
          return 1;
        });
    return commandLine.execute(args);
  }

  /** {@code compact <catalog.db.table>} with the CLI's compact flags. */
  @Command(
      name = "compact",
      description = "Rewrite small files of an Iceberg table into files of the target size.",
      mixinStandardHelpOptions = true)
  static final class Compact implements Callable<Integer> {
    @CommandLine.ParentCommand LakeOpsJob job;

    @Parameters(
        index = "0",
        paramLabel = "<catalog.namespace.table>",
        description = "The table to compact.")
    String table;

    @Option(
        names = "--strategy",
        defaultValue = "binpack",
        description = "binpack, sort, zorder or auto.")
    String strategy;

    @Option(
        names = "--target-file-size",
        paramLabel = "SIZE",
        description = "Target file size, e.g. 512MB.")
    String targetFileSize;

    @Option(
        names = "--memory",
        paramLabel = "SIZE",
        description = "Memory budget of a driver rewrite (default 256MB).")
    String memory;

    @Option(
        names = "--option",
        paramLabel = "KEY=VALUE",
        description = "Iceberg rewrite_data_files option, repeatable.")
    Map<String, String> options = new LinkedHashMap<>();

    @Option(
        names = "--where",
        paramLabel = "EXPR",
        description = "Only files that may hold matching rows.")
    String where;

    @Option(
        names = "--sort-order",
        paramLabel = "ORDER",
        description = "Sort order for --strategy sort.")
    String sortOrder;

    @Option(
        names = "--zorder",
        paramLabel = "COLUMNS",
        split = ",",
        description = "Columns for --strategy zorder.")
    List<String> zorderColumns = new ArrayList<>();

    @Option(
        names = "--min-age",
        paramLabel = "DURATION",
        description = "Leave files younger than this alone (sets --option min-age).")
    String minAge;

    @Option(
        names = "--execution",
        defaultValue = "executors",
        description = "Where file groups are rewritten: executors (default) or driver.")
    String execution;

    @Option(names = "--dry-run", description = "Plan only, change nothing.")
    boolean dryRun;

    @Override
    public Integer call() {
      Map<String, String> rewriteOptions = new LinkedHashMap<>(options);
      if (targetFileSize != null) {
        rewriteOptions.put(
            RewriteOptions.TARGET_FILE_SIZE_BYTES,
            String.valueOf(ByteSize.parse(targetFileSize).bytes()));
      }
      if (minAge != null) {
        rewriteOptions.put(RewriteOptions.MIN_AGE, minAge);
      }
      List<String> arguments = new ArrayList<>();
      arguments.add("table => " + literal(table));
      arguments.add("strategy => " + literal(strategy));
      if (sortOrder != null) {
        arguments.add("sort_order => " + literal(sortOrder));
      }
      if (!zorderColumns.isEmpty()) {
        arguments.add("zorder_by => " + literal(String.join(",", zorderColumns)));
      }
      if (where != null) {
        arguments.add("where => " + literal(where));
      }
      if (!rewriteOptions.isEmpty()) {
        List<String> entries = new ArrayList<>();
        rewriteOptions.forEach((key, value) -> entries.add(literal(key) + ", " + literal(value)));
        arguments.add("options => map(" + String.join(", ", entries) + ")");
      }
      if (memory != null) {
        arguments.add("memory => " + literal(memory));
      }
      arguments.add("dry_run => " + dryRun);
      arguments.add("execution => " + literal(execution));
      Row result =
          job.spark.sql("CALL lakeops.compact(" + String.join(", ", arguments) + ")").first();
      StructField[] fields = result.schema().fields();
      for (int i = 0; i < fields.length; i++) {
        job.out.println(fields[i].name() + ": " + (result.isNullAt(i) ? "" : result.get(i)));
      }
      return 0;
    }

    /** A SQL string literal; backslashes and quotes escaped as Spark SQL reads them. */
    private static String literal(String value) {
      return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }
  }
}
