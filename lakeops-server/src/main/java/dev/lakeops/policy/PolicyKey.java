package dev.lakeops.policy;

import static java.util.Objects.requireNonNull;

import dev.lakeops.maintain.orphan.OrphanRemovalOptions;
import dev.lakeops.unit.TimeInput;
import dev.lakeops.verify.VerificationMode;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;

/**
 * Every policy key with its type, default and meaning: the single source of the policy reference in
 * {@code docs/serve.md} (a test checks the two agree). Besides these, {@code
 * compact.options.<option>} passes an Iceberg rewrite option through.
 */
public enum PolicyKey {
  ENABLED("enabled", PolicyValueType.BOOLEAN, "true", Scope.TABLE, "Maintain the table at all."),
  POLL_INTERVAL(
      "poll-interval",
      PolicyValueType.DURATION,
      "1m",
      Scope.TABLE,
      "Shortest time between two evaluations of a table; a degrading table is evaluated this often."),
  MAX_POLL_INTERVAL(
      "max-poll-interval",
      PolicyValueType.DURATION,
      "15m",
      Scope.TABLE,
      "Longest time between two evaluations of a table that stays healthy (the interval doubles from"
          + " poll-interval up to this); never shorter than poll-interval."),
  COMPACT_ENABLED(
      "compact.enabled", PolicyValueType.BOOLEAN, "true", Scope.TABLE, "Compact data files."),
  COMPACT_STRATEGY(
      "compact.strategy",
      PolicyValueType.STRATEGY,
      "binpack",
      Scope.TABLE,
      "How compaction lays out rows: binpack, sort (the table's sort order), zorder or auto (chosen"
          + " from query telemetry)."),
  COMPACT_VERIFY(
      VerificationMode.POLICY_KEY,
      PolicyValueType.VERIFICATION,
      "default",
      Scope.TABLE,
      "How compaction proves each rewritten file group before its commit: counts, checksum, off, or"
          + " default (checksum for sort and zorder, counts for binpack)."),
  COMPACT_SMALL_FILE_RATIO(
      "compact.small-file-ratio",
      PolicyValueType.RATIO,
      "0.75",
      Scope.TABLE,
      "A data file under this share of the target file size is small; files at or above it are"
          + " rewritten only when deletes apply to them."),
  COMPACT_MIN_SMALL_FILES(
      "compact.min-small-files",
      PolicyValueType.COUNT,
      "12",
      Scope.TABLE,
      "A partition is compacted when it holds at least this many small files, or when one commit"
          + " added at least this many small files to the table."),
  COMPACT_MIN_DELETE_FILES(
      "compact.min-delete-files",
      PolicyValueType.COUNT,
      "10",
      Scope.TABLE,
      "A partition holding at least this many delete files has them dealt with: compacted"
          + " (deletes applied) or, position deletes only, their delete files rewritten alone,"
          + " whichever removes more delete files per byte written; from half as many when the"
          + " cheaper of the two can run."),
  COMPACT_MIN_INTERVAL(
      "compact.min-interval",
      PolicyValueType.DURATION,
      "10m",
      Scope.TABLE,
      "Least time between two compactions of one table."),
  COMPACT_TARGET_FILE_SIZE(
      "compact.target-file-size",
      PolicyValueType.OPTIONAL_SIZE,
      "none",
      Scope.TABLE,
      "Target size of the files compaction writes; none: the table's write.target-file-size-bytes."),
  COMPACT_MAX_RECOMPACTED_SHARE(
      "compact.max-recompacted-share",
      PolicyValueType.RATIO,
      "0.5",
      Scope.TABLE,
      "Non-convergence guard: when more than this share of the bytes the table's recent compactions"
          + " rewrote had been written by earlier compactions, the table is backed off (a compaction"
          + " whose new files average half the target size or more counts as converging)."),
  COMPACT_BACKOFF(
      "compact.backoff",
      PolicyValueType.DURATION,
      "1h",
      Scope.TABLE,
      "How long a backed-off table waits after its last compaction before it is compacted again."),
  COMPACT_MEMORY(
      "compact.memory",
      PolicyValueType.OPTIONAL_SIZE,
      "none",
      Scope.TABLE,
      "Memory each compaction of the table takes from the lake's budget (at most memory); none: learned"
          + " from the table's runs (predicted peak plus headroom), an equal share until it has history."),
  EXPIRE_ENABLED(
      "expire.enabled", PolicyValueType.BOOLEAN, "true", Scope.TABLE, "Expire old snapshots."),
  EXPIRE_OLDER_THAN(
      "expire.older-than",
      PolicyValueType.DURATION,
      "5d",
      Scope.TABLE,
      "Snapshots older than this (beyond expire.retain-last) are expired."),
  EXPIRE_RETAIN_LAST(
      "expire.retain-last",
      PolicyValueType.COUNT,
      "1",
      Scope.TABLE,
      "The newest snapshots always kept, however old."),
  ORPHANS_ENABLED(
      "orphans.enabled",
      PolicyValueType.BOOLEAN,
      "true",
      Scope.TABLE,
      "Remove files under the table location that no snapshot references."),
  ORPHANS_OLDER_THAN(
      "orphans.older-than",
      PolicyValueType.DURATION,
      "3d",
      Scope.TABLE,
      "Only files older than this are orphan candidates; at least 3d (files of writes in progress"
          + " must not be deleted)."),
  ORPHANS_INTERVAL(
      "orphans.interval",
      PolicyValueType.DURATION,
      "1d",
      Scope.TABLE,
      "Least time between two orphan cleanups of one table (a failed cleanup is retried at the next"
          + " evaluation)."),
  MANIFESTS_ENABLED(
      "manifests.enabled", PolicyValueType.BOOLEAN, "true", Scope.TABLE, "Rewrite manifests."),
  MANIFESTS_MIN_COUNT(
      "manifests.min-count",
      PolicyValueType.COUNT,
      "50",
      Scope.TABLE,
      "Manifests are rewritten when there are at least this many and they are small."),
  MANIFESTS_TARGET_SIZE(
      "manifests.target-size",
      PolicyValueType.SIZE,
      "8MB",
      Scope.TABLE,
      "Manifest size a rewrite aims for; manifests averaging under compact.small-file-ratio of it are"
          + " small."),
  FAILURES_SUSPEND_AFTER(
      "failures.suspend-after",
      PolicyValueType.COUNT,
      "3",
      Scope.TABLE,
      "An operation that fails this many times in a row on a table is suspended on it until the"
          + " table changes (a new snapshot or policy) or lakeops resume."),
  FAILURES_RUN_DEADLINE(
      "failures.run-deadline",
      PolicyValueType.DURATION,
      "6h",
      Scope.TABLE,
      "A run of serve still going after this is taken as stuck: abandoned (counted as a failure)"
          + " and tried again."),
  EXECUTION_SPARK_SUBMIT_MIN_BYTES(
      "execution.spark-submit.min-bytes",
      PolicyValueType.OPTIONAL_SIZE,
      "none",
      Scope.TABLE,
      "A compaction planned to rewrite at least this many bytes runs as a Spark application"
          + " (execution.spark-submit.command) instead of inside serve; none: always inside serve."),
  EXECUTION_SPARK_SUBMIT_COMMAND(
      "execution.spark-submit.command",
      PolicyValueType.OPTIONAL_COMMAND,
      "none",
      Scope.LAKE,
      "Lake-wide (catalog: only): the command that runs a handed-off compaction, e.g. spark-submit"
          + " --class dev.lakeops.spark.LakeOpsJob lakeops-spark.jar compact lake.{table}; {table}"
          + " is namespace.table, {catalog} serve's catalog name, {flags} the compact flags"
          + " (appended when absent)."),
  EXECUTION_SPARK_SUBMIT_TIMEOUT(
      "execution.spark-submit.timeout",
      PolicyValueType.DURATION,
      "4h",
      Scope.LAKE,
      "Lake-wide (catalog: only): a handed-off compaction still running after this is killed and"
          + " recorded as failed."),
  MAX_CONCURRENT_TABLES(
      "max-concurrent-tables",
      PolicyValueType.COUNT,
      "2",
      Scope.LAKE,
      "Lake-wide (catalog: only): tables maintained at the same time."),
  MEMORY(
      "memory",
      PolicyValueType.SIZE,
      "1GB",
      Scope.LAKE,
      "Lake-wide (catalog: only): the total memory budget every running job's budget is carved from."),
  MAX_BYTES_PER_HOUR(
      "max-bytes-per-hour",
      PolicyValueType.OPTIONAL_SIZE,
      "none",
      Scope.LAKE,
      "Lake-wide (catalog: only): most bytes compactions may rewrite per hour; none: no limit."),
  EVALUATION_THREADS(
      "evaluation-threads",
      PolicyValueType.COUNT,
      "4",
      Scope.LAKE,
      "Lake-wide (catalog: only): tables serve evaluates (reads the metadata of) at the same time;"
          + " on a lake of thousands of tables the first full look is this many times faster."),
  METRICS_TABLE_SERIES(
      "metrics.table-series",
      PolicyValueType.COUNT,
      "100",
      Scope.LAKE,
      "Lake-wide (catalog: only): the per-table Prometheus series (lakeops_table_*) cover at most"
          + " this many tables, the worst first; set it to the lake's table count for every table.");

  /** The prefix under which Iceberg rewrite options pass through. */
  public static final String COMPACT_OPTIONS_PREFIX = "compact.options.";

  /** Where a key may be set. */
  public enum Scope {
    /** Any level: catalog, namespace, table, table property. */
    TABLE,
    /** Only the policy file's {@code catalog:} section. */
    LAKE
  }

  private final String key;
  private final PolicyValueType type;
  private final String defaultText;
  private final Scope scope;
  private final String description;
  private final Object defaultValue;

  PolicyKey(String key, PolicyValueType type, String defaultText, Scope scope, String description) {
    this.key = requireNonNull(key, "key is null");
    this.type = requireNonNull(type, "type is null");
    this.defaultText = requireNonNull(defaultText, "defaultText is null");
    this.scope = requireNonNull(scope, "scope is null");
    this.description = requireNonNull(description, "description is null");
    this.defaultValue = type.parse(defaultText);
  }

  public String key() {
    return key;
  }

  public PolicyValueType type() {
    return type;
  }

  public String defaultText() {
    return defaultText;
  }

  public Object defaultValue() {
    return defaultValue;
  }

  public Scope scope() {
    return scope;
  }

  public String description() {
    return description;
  }

  /** Parses and checks a value of this key; IllegalArgumentException with a one-line reason. */
  public Object parse(String text) {
    requireNonNull(text, "text is null");
    Object value = type.parse(text);
    if (this == ORPHANS_OLDER_THAN
        && ((Duration) value).compareTo(OrphanRemovalOptions.SAFETY_FLOOR) < 0) {
      throw new IllegalArgumentException(
          "'"
              + text
              + "' is below the "
              + TimeInput.format(OrphanRemovalOptions.SAFETY_FLOOR)
              + " safety floor (files of writes in progress could be deleted)");
    }
    return value;
  }

  /** The key named {@code name}, if any. */
  public static Optional<PolicyKey> named(String name) {
    return Arrays.stream(values()).filter(key -> key.key.equals(name)).findFirst();
  }
}
