package dev.lakeops.plan;

import static java.util.Objects.requireNonNull;

import dev.lakeops.io.ObjectReadOptions;
import dev.lakeops.option.OptionValues;
import dev.lakeops.option.RewriteOption;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.iceberg.Table;

/**
 * Iceberg {@code rewrite_data_files} options, parsed and validated once. Keys are Iceberg's own
 * names, verbatim, so existing Spark procedure calls carry over unchanged. Each option is declared
 * once, as a {@link RewriteOption} in its group: {@link PlannerOptions}, {@link CommitOptions},
 * {@link ExecutionOptions}, {@link WriterOptions} and {@link ObjectReadOptions}.
 *
 * @param planner which files are rewritten and how they are grouped
 * @param commit how rewritten groups are committed
 * @param execution how groups are rewritten
 * @param writer how the new files are written
 * @param io how the input files are read
 */
public record RewriteOptions(
    PlannerOptions planner,
    CommitOptions commit,
    ExecutionOptions execution,
    WriterOptions writer,
    ObjectReadOptions io) {

  public static final String TARGET_FILE_SIZE_BYTES = PlannerOptions.TARGET_FILE_SIZE_BYTES.key();
  public static final String MIN_FILE_SIZE_BYTES = PlannerOptions.MIN_FILE_SIZE_BYTES.key();
  public static final String MAX_FILE_SIZE_BYTES = PlannerOptions.MAX_FILE_SIZE_BYTES.key();
  public static final String MIN_INPUT_FILES = PlannerOptions.MIN_INPUT_FILES.key();
  public static final String MAX_FILE_GROUP_SIZE_BYTES =
      PlannerOptions.MAX_FILE_GROUP_SIZE_BYTES.key();
  public static final String REWRITE_ALL = PlannerOptions.REWRITE_ALL.key();
  public static final String DELETE_FILE_THRESHOLD = PlannerOptions.DELETE_FILE_THRESHOLD.key();
  public static final String DELETE_RATIO_THRESHOLD = PlannerOptions.DELETE_RATIO_THRESHOLD.key();
  public static final String MAX_FILES_TO_REWRITE = PlannerOptions.MAX_FILES_TO_REWRITE.key();
  public static final String MIN_AGE = PlannerOptions.MIN_AGE.key();
  public static final String RECOMPACT_MIN_BYTES = PlannerOptions.RECOMPACT_MIN_BYTES.key();
  public static final String RECOMPACT_MIN_FILES = PlannerOptions.RECOMPACT_MIN_FILES.key();
  public static final String PARTIAL_PROGRESS_ENABLED =
      CommitOptions.PARTIAL_PROGRESS_ENABLED.key();
  public static final String PARTIAL_PROGRESS_MAX_COMMITS =
      CommitOptions.PARTIAL_PROGRESS_MAX_COMMITS.key();
  public static final String PARTIAL_PROGRESS_MAX_FAILED_COMMITS =
      CommitOptions.PARTIAL_PROGRESS_MAX_FAILED_COMMITS.key();
  public static final String USE_STARTING_SEQUENCE_NUMBER =
      CommitOptions.USE_STARTING_SEQUENCE_NUMBER.key();
  public static final String REMOVE_DANGLING_DELETES = CommitOptions.REMOVE_DANGLING_DELETES.key();
  public static final String MAX_CONCURRENT_FILE_GROUP_REWRITES =
      ExecutionOptions.MAX_CONCURRENT_FILE_GROUP_REWRITES.key();
  public static final String DECODE_FREE_MERGE = ExecutionOptions.DECODE_FREE_MERGE.key();
  public static final String REWRITE_CODEC = WriterOptions.REWRITE_CODEC.key();
  public static final String ROW_GROUP_SIZE_BYTES = WriterOptions.ROW_GROUP_SIZE_BYTES.key();

  /** Every option of the five groups, group by group. */
  public static final List<RewriteOption<?>> OPTIONS =
      Stream.of(
              PlannerOptions.OPTIONS,
              CommitOptions.OPTIONS,
              ExecutionOptions.OPTIONS,
              WriterOptions.OPTIONS,
              ObjectReadOptions.OPTIONS)
          .flatMap(List::stream)
          .toList();

  /**
   * Iceberg options accepted so that existing calls carry over, and not used: they tune how Spark
   * shuffles and orders a rewrite, which LakeOps plans itself; the files written are the same.
   */
  public static final Set<String> ACCEPTED_AND_IGNORED =
      Set.of(
          "rewrite-job-order",
          "shuffle-partitions-per-file",
          "compression-factor",
          "max-output-size",
          "var-length-contribution");

  /** The key of every option this record takes. */
  public static final Set<String> VALID_KEYS = validKeys();

  public RewriteOptions {
    requireNonNull(planner, "planner is null");
    requireNonNull(commit, "commit is null");
    requireNonNull(execution, "execution is null");
    requireNonNull(writer, "writer is null");
    requireNonNull(io, "io is null");
  }

  /** Parses {@code options} against the table's properties; unknown keys are rejected. */
  public static RewriteOptions parse(Table table, Map<String, String> options) {
    requireNonNull(table, "table is null");
    requireNonNull(options, "options is null");
    for (String key : options.keySet()) {
      if (WriterOptions.UNSUPPORTED.containsKey(key)) {
        throw new IllegalArgumentException(WriterOptions.UNSUPPORTED.get(key));
      }
      if (!VALID_KEYS.contains(key) && !ACCEPTED_AND_IGNORED.contains(key)) {
        throw new IllegalArgumentException(
            "Unknown rewrite option '"
                + key
                + "'; valid options: "
                + String.join(", ", new TreeSet<>(VALID_KEYS)));
      }
    }
    OptionValues values = new OptionValues(table, options);
    return new RewriteOptions(
        PlannerOptions.parse(values),
        CommitOptions.parse(values),
        ExecutionOptions.parse(values),
        WriterOptions.parse(values),
        ObjectReadOptions.parse(values));
  }

  /**
   * These options for a sort that rewrites every file: {@link #REWRITE_ALL} on, {@link
   * #DECODE_FREE_MERGE} off (a sort decodes every row).
   */
  public RewriteOptions sortingAll() {
    return new RewriteOptions(planner.withRewriteAll(), commit, execution.decoding(), writer, io);
  }

  public long targetFileSizeBytes() {
    return planner.targetFileSizeBytes();
  }

  public long minFileSizeBytes() {
    return planner.minFileSizeBytes();
  }

  public long maxFileSizeBytes() {
    return planner.maxFileSizeBytes();
  }

  public int minInputFiles() {
    return planner.minInputFiles();
  }

  public long maxFileGroupSizeBytes() {
    return planner.maxFileGroupSizeBytes();
  }

  public boolean rewriteAll() {
    return planner.rewriteAll();
  }

  public int deleteFileThreshold() {
    return planner.deleteFileThreshold();
  }

  public double deleteRatioThreshold() {
    return planner.deleteRatioThreshold();
  }

  public int maxFilesToRewrite() {
    return planner.maxFilesToRewrite();
  }

  public Duration minAge() {
    return planner.minAge();
  }

  public long recompactMinBytes() {
    return planner.recompactMinBytes();
  }

  public int recompactMinFiles() {
    return planner.recompactMinFiles();
  }

  public boolean partialProgressEnabled() {
    return commit.partialProgressEnabled();
  }

  public int partialProgressMaxCommits() {
    return commit.partialProgressMaxCommits();
  }

  public int partialProgressMaxFailedCommits() {
    return commit.partialProgressMaxFailedCommits();
  }

  public boolean useStartingSequenceNumber() {
    return commit.useStartingSequenceNumber();
  }

  public boolean removeDanglingDeletes() {
    return commit.removeDanglingDeletes();
  }

  public int maxConcurrentFileGroupRewrites() {
    return execution.maxConcurrentFileGroupRewrites();
  }

  public boolean decodeFreeMerge() {
    return execution.decodeFreeMerge();
  }

  public boolean rewriteCodec() {
    return writer.rewriteCodec();
  }

  public OptionalLong rowGroupSizeBytes() {
    return writer.rowGroupSizeBytes();
  }

  private static Set<String> validKeys() {
    Set<String> keys = new HashSet<>();
    for (RewriteOption<?> option : OPTIONS) {
      if (!keys.add(option.key())) {
        throw new IllegalStateException("rewrite option " + option.key() + " is declared twice");
      }
    }
    return Set.copyOf(keys);
  }
}
