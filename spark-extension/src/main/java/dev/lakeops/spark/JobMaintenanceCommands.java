package dev.lakeops.spark;

import dev.lakeops.unit.TimeInput;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StructField;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The maintenance commands of {@link LakeOpsJob} besides {@code compact}: each takes the CLI
 * command's flags, runs the {@code lakeops} procedure of the same name in the application's session
 * (so the table is found through its {@code spark.sql.catalog.<name>.*} settings) and prints every
 * result row, one {@code column: value} per line, rows separated by a blank line.
 */
final class JobMaintenanceCommands {
  private JobMaintenanceCommands() {}

  /** {@code expire_snapshots <catalog.db.table>} with the CLI's expire flags. */
  @Command(
      name = "expire_snapshots",
      aliases = "expire-snapshots",
      description = "Expire old snapshots and delete the files only they referenced.",
      mixinStandardHelpOptions = true)
  static final class ExpireSnapshots implements Callable<Integer> {
    @CommandLine.ParentCommand LakeOpsJob job;

    @Parameters(
        index = "0",
        paramLabel = "<catalog.namespace.table>",
        description = "The table to expire.")
    String table;

    @Option(
        names = "--older-than",
        paramLabel = "DURATION|TIMESTAMP",
        description =
            "Expire snapshots older than this: 7d, 12h, or 2026-01-31T00:00:00Z (default: the table's"
                + " history.expire.max-snapshot-age-ms, 5 days).")
    String olderThan;

    @Option(
        names = "--retain-last",
        paramLabel = "N",
        description = "Keep at least N ancestors of every branch.")
    Integer retainLast;

    @Option(
        names = "--snapshot-id",
        paramLabel = "ID",
        description = "Also expire this snapshot; repeatable.")
    List<Long> snapshotIds = new ArrayList<>();

    @Option(
        names = "--clean-expired-metadata",
        description = "Also remove partition specs no kept snapshot uses.")
    boolean cleanExpiredMetadata;

    @Option(
        names = "--dry-run",
        description = "Report what would be expired and deleted; change nothing.")
    boolean dryRun;

    @Override
    public Integer call() {
      List<String> arguments = new ArrayList<>();
      arguments.add("table => " + SqlLiterals.string(table));
      if (olderThan != null) {
        arguments.add(
            "older_than => "
                + SqlLiterals.timestamp(
                    TimeInput.parseCutoff(olderThan, Instant.now(), "--older-than")));
      }
      if (retainLast != null) {
        arguments.add("retain_last => " + retainLast);
      }
      if (!snapshotIds.isEmpty()) {
        arguments.add(
            "snapshot_ids => array("
                + String.join(", ", snapshotIds.stream().map(id -> id + "L").toList())
                + ")");
      }
      arguments.add("clean_expired_metadata => " + cleanExpiredMetadata);
      arguments.add("dry_run => " + dryRun);
      return callProcedure(job, ExpireSnapshotsProcedure.NAME, arguments);
    }
  }

  /** {@code remove_orphan_files <catalog.db.table>} with the CLI's orphan flags. */
  @Command(
      name = "remove_orphan_files",
      aliases = "remove-orphan-files",
      description = "Delete files under the table location that no snapshot references.",
      mixinStandardHelpOptions = true)
  static final class RemoveOrphanFiles implements Callable<Integer> {
    @CommandLine.ParentCommand LakeOpsJob job;

    @Parameters(
        index = "0",
        paramLabel = "<catalog.namespace.table>",
        description = "The table to clean.")
    String table;

    @Option(
        names = "--older-than",
        paramLabel = "DURATION",
        defaultValue = "3d",
        description =
            "Only files older than this (default: ${DEFAULT-VALUE}, also the safety floor).")
    String olderThan;

    @Option(
        names = "--location",
        paramLabel = "PATH",
        description = "List this directory inside the table location.")
    String location;

    @Option(names = "--dry-run", description = "List the orphans; delete nothing.")
    boolean dryRun;

    @Option(
        names = "--prefix-mismatch-mode",
        paramLabel = "MODE",
        description = "error (default), ignore or delete.")
    String prefixMismatchMode;

    @Option(
        names = "--equal-schemes",
        paramLabel = "SCHEMES=SCHEME",
        description = "Schemes that name the same storage, repeatable.")
    Map<String, String> equalSchemes = new LinkedHashMap<>();

    @Option(
        names = "--equal-authorities",
        paramLabel = "AUTHORITIES=AUTHORITY",
        description = "Authorities that name the same storage, repeatable.")
    Map<String, String> equalAuthorities = new LinkedHashMap<>();

    @Override
    public Integer call() {
      Instant cutoff = Instant.now().minus(TimeInput.parseDuration(olderThan, "--older-than"));
      List<String> arguments = new ArrayList<>();
      arguments.add("table => " + SqlLiterals.string(table));
      arguments.add("older_than => " + SqlLiterals.timestamp(cutoff));
      if (location != null) {
        arguments.add("location => " + SqlLiterals.string(location));
      }
      arguments.add("dry_run => " + dryRun);
      if (prefixMismatchMode != null) {
        arguments.add("prefix_mismatch_mode => " + SqlLiterals.string(prefixMismatchMode));
      }
      if (!equalSchemes.isEmpty()) {
        arguments.add("equal_schemes => " + SqlLiterals.map(equalSchemes));
      }
      if (!equalAuthorities.isEmpty()) {
        arguments.add("equal_authorities => " + SqlLiterals.map(equalAuthorities));
      }
      return callProcedure(job, RemoveOrphanFilesProcedure.NAME, arguments);
    }
  }

  /** {@code rewrite_manifests <catalog.db.table>} with the CLI's manifest flags. */
  @Command(
      name = "rewrite_manifests",
      aliases = "rewrite-manifests",
      description = "Rewrite data manifests into fewer, partition-clustered manifests.",
      mixinStandardHelpOptions = true)
  static final class RewriteManifests implements Callable<Integer> {
    @CommandLine.ParentCommand LakeOpsJob job;

    @Parameters(
        index = "0",
        paramLabel = "<catalog.namespace.table>",
        description = "The table to rewrite.")
    String table;

    @Option(
        names = "--spec-id",
        paramLabel = "N",
        description = "Only manifests of this partition spec.")
    Integer specId;

    @Option(
        names = "--target-manifest-size",
        paramLabel = "SIZE",
        description = "Size of the new manifests, e.g. 8MB.")
    String targetManifestSize;

    @Option(
        names = "--dry-run",
        description = "Report the manifests that would be rewritten; change nothing.")
    boolean dryRun;

    @Override
    public Integer call() {
      List<String> arguments = new ArrayList<>();
      arguments.add("table => " + SqlLiterals.string(table));
      if (specId != null) {
        arguments.add("spec_id => " + specId);
      }
      if (targetManifestSize != null) {
        arguments.add("target_manifest_size => " + SqlLiterals.string(targetManifestSize));
      }
      arguments.add("dry_run => " + dryRun);
      return callProcedure(job, RewriteManifestsProcedure.NAME, arguments);
    }
  }

  /** {@code maintain <catalog.db.table>} with the CLI's maintain flags. */
  @Command(
      name = "maintain",
      description =
          "Expire snapshots, remove orphan files, compact and rewrite manifests, in that order.",
      mixinStandardHelpOptions = true)
  static final class Maintain implements Callable<Integer> {
    @CommandLine.ParentCommand LakeOpsJob job;

    @Parameters(
        index = "0",
        paramLabel = "<catalog.namespace.table>",
        description = "The table to maintain.")
    String table;

    @Option(
        names = "--skip",
        paramLabel = "STEPS",
        split = ",",
        description = "Steps to skip: expire, orphans, compact, manifests.")
    List<String> skip = new ArrayList<>();

    @Option(names = "--skip-expire", description = "Skip snapshot expiry.")
    boolean skipExpire;

    @Option(names = "--skip-orphans", description = "Skip orphan file removal.")
    boolean skipOrphans;

    @Option(names = "--skip-compact", description = "Skip compaction.")
    boolean skipCompact;

    @Option(names = "--skip-manifests", description = "Skip the manifest rewrite.")
    boolean skipManifests;

    @Option(
        names = "--dry-run",
        description = "Every step reports what it would do; change nothing.")
    boolean dryRun;

    @Override
    public Integer call() {
      List<String> steps = new ArrayList<>(skip);
      if (skipExpire) {
        steps.add("expire");
      }
      if (skipOrphans) {
        steps.add("orphans");
      }
      if (skipCompact) {
        steps.add("compact");
      }
      if (skipManifests) {
        steps.add("manifests");
      }
      List<String> arguments = new ArrayList<>();
      arguments.add("table => " + SqlLiterals.string(table));
      if (!steps.isEmpty()) {
        arguments.add(
            "skip_steps => array("
                + String.join(", ", steps.stream().map(SqlLiterals::string).toList())
                + ")");
      }
      arguments.add("dry_run => " + dryRun);
      return callProcedure(job, MaintainProcedure.NAME, arguments);
    }
  }

  /** Runs {@code CALL lakeops.<procedure>(arguments)} and prints its rows; returns exit code 0. */
  private static int callProcedure(LakeOpsJob job, String procedure, List<String> arguments) {
    List<Row> rows =
        job.spark()
            .sql("CALL lakeops." + procedure + "(" + String.join(", ", arguments) + ")")
            .collectAsList();
    for (int index = 0; index < rows.size(); index++) {
      if (index > 0) {
        job.out().println();
      }
      Row row = rows.get(index);
      StructField[] fields = row.schema().fields();
      for (int field = 0; field < fields.length; field++) {
        job.out()
            .println(fields[field].name() + ": " + (row.isNullAt(field) ? "" : row.get(field)));
      }
    }
    return 0;
  }

  /** Spark SQL literals for the generated CALL statements. */
  static final class SqlLiterals {
    private SqlLiterals() {}

    /** A string literal; backslashes and quotes escaped as Spark SQL reads them. */
    static String string(String value) {
      return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }

    /** A timestamp literal of {@code instant}, in UTC whatever the session's time zone. */
    static String timestamp(Instant instant) {
      return "TIMESTAMP '" + instant.truncatedTo(ChronoUnit.MICROS) + "'";
    }

    static String map(Map<String, String> entries) {
      List<String> parts = new ArrayList<>();
      entries.forEach((key, value) -> parts.add(string(key) + ", " + string(value)));
      return "map(" + String.join(", ", parts) + ")";
    }
  }
}
