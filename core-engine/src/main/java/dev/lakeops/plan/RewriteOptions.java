package dev.lakeops.plan;

import static java.util.Objects.requireNonNull;

import dev.lakeops.health.SmallFileRule;
import dev.lakeops.io.ObjectReadOptions;
import dev.lakeops.unit.TimeInput;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.util.PropertyUtil;

/**
 * Iceberg {@code rewrite_data_files} options, parsed and validated once. Keys are Iceberg's own
 * names, verbatim, so existing Spark procedure calls carry over unchanged.
 */
public record RewriteOptions(
    long targetFileSizeBytes,
    long minFileSizeBytes,
    long maxFileSizeBytes,
    int minInputFiles,
    long maxFileGroupSizeBytes,
    boolean rewriteAll,
    int deleteFileThreshold,
    double deleteRatioThreshold,
    boolean partialProgressEnabled,
    int partialProgressMaxCommits,
    int partialProgressMaxFailedCommits,
    int maxConcurrentFileGroupRewrites,
    boolean useStartingSequenceNumber,
    boolean removeDanglingDeletes,
    int maxFilesToRewrite,
    boolean decodeFreeMerge,
    Duration minAge,
    boolean rewriteCodec,
    OptionalLong rowGroupSizeBytes,
    long recompactMinBytes,
    int recompactMinFiles) {

  /**
   * Target size of the files written; defaults to the table's {@code write.target-file-size-bytes}.
   */
  public static final String TARGET_FILE_SIZE_BYTES = "target-file-size-bytes";

  /** Files smaller than this are rewritten; default 75% of the target. */
  public static final String MIN_FILE_SIZE_BYTES = "min-file-size-bytes";

  public static final double MIN_FILE_SIZE_DEFAULT_RATIO = SmallFileRule.DEFAULT_RATIO;

  /** Files larger than this are rewritten (split); default 180% of the target. */
  public static final String MAX_FILE_SIZE_BYTES = "max-file-size-bytes";

  public static final double MAX_FILE_SIZE_DEFAULT_RATIO = 1.80;

  /** A group with at least this many files is rewritten even if small in bytes. */
  public static final String MIN_INPUT_FILES = "min-input-files";

  public static final int MIN_INPUT_FILES_DEFAULT = 5;

  /** Largest amount of input data one file group may hold. */
  public static final String MAX_FILE_GROUP_SIZE_BYTES = "max-file-group-size-bytes";

  public static final long MAX_FILE_GROUP_SIZE_BYTES_DEFAULT = 100L * 1024 * 1024 * 1024;

  /** Rewrite every file regardless of size. */
  public static final String REWRITE_ALL = "rewrite-all";

  /** A file with at least this many delete files is rewritten. */
  public static final String DELETE_FILE_THRESHOLD = "delete-file-threshold";

  public static final int DELETE_FILE_THRESHOLD_DEFAULT = Integer.MAX_VALUE;

  /** A file whose deleted-row ratio reaches this is rewritten. */
  public static final String DELETE_RATIO_THRESHOLD = "delete-ratio-threshold";

  public static final double DELETE_RATIO_THRESHOLD_DEFAULT = 0.3;

  /** Commit file groups in several commits as they finish. */
  public static final String PARTIAL_PROGRESS_ENABLED = "partial-progress.enabled";

  /** Most commits a partial-progress run makes. */
  public static final String PARTIAL_PROGRESS_MAX_COMMITS = "partial-progress.max-commits";

  public static final int PARTIAL_PROGRESS_MAX_COMMITS_DEFAULT = 10;

  /** Most failed commits a partial-progress run tolerates before failing. */
  public static final String PARTIAL_PROGRESS_MAX_FAILED_COMMITS =
      "partial-progress.max-failed-commits";

  /** File groups rewritten at the same time; default: available processors. */
  public static final String MAX_CONCURRENT_FILE_GROUP_REWRITES =
      "max-concurrent-file-group-rewrites";

  /** New files carry the starting snapshot's sequence number so newer deletes still apply. */
  public static final String USE_STARTING_SEQUENCE_NUMBER = "use-starting-sequence-number";

  /** Remove delete files that no longer apply to any live data file. */
  public static final String REMOVE_DANGLING_DELETES = "remove-dangling-deletes";

  /** Rewrite at most this many files in one run. */
  public static final String MAX_FILES_TO_REWRITE = "max-files-to-rewrite";

  /**
   * LakeOps only: merge groups without deletes by copying row groups and pages instead of decoding
   * (default true). The decoding path is used for every group this cannot take.
   */
  public static final String DECODE_FREE_MERGE = "decode-free-merge";

  /**
   * LakeOps only: leave data files committed less than this long ago alone (they may belong to a
   * writer still at work), e.g. {@code 15m}; default 0 (every file qualifies). Read from the commit
   * time of the snapshot that added the file (format v2 and later).
   */
  public static final String MIN_AGE = "min-age";

  /**
   * LakeOps only: make the decode-free merge write every page in the table's current {@code
   * write.parquet.compression-codec} (default false). By default, files written before the codec
   * changed keep their codec: their row groups are copied as they are, and only a column chunk
   * merged from inputs in several codecs is recompressed (values are never decoded either way).
   */
  public static final String REWRITE_CODEC = "rewrite-codec";

  /**
   * LakeOps only: the Parquet row-group size of the files a sort or z-order writes, e.g. {@code
   * 16777216}; default the table's {@code write.parquet.row-group-size-bytes}. Smaller row groups
   * of sorted data let readers skip more of each file by row-group statistics ({@code --strategy
   * auto} sets it, see docs/advisor.md). Binpack keeps row groups as they are.
   */
  public static final String ROW_GROUP_SIZE_BYTES = "row-group-size-bytes";

  /**
   * LakeOps only: a small file an earlier compaction wrote (see {@code
   * dev.lakeops.health.CompactionOutputs}) is rewritten again only in a partition whose small files
   * that writers added since hold at least this many bytes (a target file's worth of new data), or
   * where {@link #RECOMPACT_MIN_FILES} applies; other small files and files with deletes are
   * rewritten as usual. Default 0: compaction outputs are rewritten like any small file (Iceberg's
   * behaviour). Keeps a busy partition from re-compacting the same bytes at every run.
   */
  public static final String RECOMPACT_MIN_BYTES = "recompact-min-bytes";

  /**
   * LakeOps only: with {@link #RECOMPACT_MIN_BYTES}, small compaction outputs are rewritten anyway
   * in a partition that holds at least this many of them (so they never pile up); default 0 (no
   * such limit).
   */
  public static final String RECOMPACT_MIN_FILES = "recompact-min-files";

  /** Accepted for compatibility with Iceberg's option set; LakeOps derives them itself. */
  private static final Set<String> ACCEPTED_AND_IGNORED =
      Set.of(
          "rewrite-job-order",
          "output-spec-id",
          "shuffle-partitions-per-file",
          "compression-factor",
          "max-output-size",
          "var-length-contribution");

  /**
   * Every option this record takes, and the object-store reading options ({@link
   * ObjectReadOptions}).
   */
  public static final Set<String> VALID_KEYS =
      union(
          ObjectReadOptions.KEYS,
          Set.of(
              TARGET_FILE_SIZE_BYTES,
              MIN_FILE_SIZE_BYTES,
              MAX_FILE_SIZE_BYTES,
              MIN_INPUT_FILES,
              MAX_FILE_GROUP_SIZE_BYTES,
              REWRITE_ALL,
              DELETE_FILE_THRESHOLD,
              DELETE_RATIO_THRESHOLD,
              PARTIAL_PROGRESS_ENABLED,
              PARTIAL_PROGRESS_MAX_COMMITS,
              PARTIAL_PROGRESS_MAX_FAILED_COMMITS,
              MAX_CONCURRENT_FILE_GROUP_REWRITES,
              USE_STARTING_SEQUENCE_NUMBER,
              REMOVE_DANGLING_DELETES,
              MAX_FILES_TO_REWRITE,
              DECODE_FREE_MERGE,
              MIN_AGE,
              REWRITE_CODEC,
              ROW_GROUP_SIZE_BYTES,
              RECOMPACT_MIN_BYTES,
              RECOMPACT_MIN_FILES));

  public RewriteOptions {
    check(targetFileSizeBytes > 0, TARGET_FILE_SIZE_BYTES, targetFileSizeBytes, "be positive");
    check(minFileSizeBytes >= 0, MIN_FILE_SIZE_BYTES, minFileSizeBytes, "not be negative");
    check(
        minFileSizeBytes < targetFileSizeBytes,
        MIN_FILE_SIZE_BYTES,
        minFileSizeBytes,
        "be less than " + TARGET_FILE_SIZE_BYTES + " (" + targetFileSizeBytes + ")");
    check(
        maxFileSizeBytes > targetFileSizeBytes,
        MAX_FILE_SIZE_BYTES,
        maxFileSizeBytes,
        "be greater than " + TARGET_FILE_SIZE_BYTES + " (" + targetFileSizeBytes + ")");
    check(minInputFiles > 0, MIN_INPUT_FILES, minInputFiles, "be positive");
    check(
        maxFileGroupSizeBytes > 0, MAX_FILE_GROUP_SIZE_BYTES, maxFileGroupSizeBytes, "be positive");
    check(deleteFileThreshold > 0, DELETE_FILE_THRESHOLD, deleteFileThreshold, "be positive");
    check(
        deleteRatioThreshold > 0 && deleteRatioThreshold <= 1,
        DELETE_RATIO_THRESHOLD,
        deleteRatioThreshold,
        "be in (0, 1]");
    check(
        partialProgressMaxCommits > 0,
        PARTIAL_PROGRESS_MAX_COMMITS,
        partialProgressMaxCommits,
        "be positive");
    check(
        partialProgressMaxFailedCommits >= 0,
        PARTIAL_PROGRESS_MAX_FAILED_COMMITS,
        partialProgressMaxFailedCommits,
        "not be negative");
    check(
        maxConcurrentFileGroupRewrites > 0,
        MAX_CONCURRENT_FILE_GROUP_REWRITES,
        maxConcurrentFileGroupRewrites,
        "be positive");
    check(maxFilesToRewrite > 0, MAX_FILES_TO_REWRITE, maxFilesToRewrite, "be positive");
    requireNonNull(minAge, "minAge is null");
    check(!minAge.isNegative(), MIN_AGE, minAge, "not be negative");
    requireNonNull(rowGroupSizeBytes, "rowGroupSizeBytes is null");
    check(
        rowGroupSizeBytes.isEmpty() || rowGroupSizeBytes.getAsLong() > 0,
        ROW_GROUP_SIZE_BYTES,
        rowGroupSizeBytes.isPresent() ? rowGroupSizeBytes.getAsLong() : 0,
        "be positive");
    check(recompactMinBytes >= 0, RECOMPACT_MIN_BYTES, recompactMinBytes, "not be negative");
    check(recompactMinFiles >= 0, RECOMPACT_MIN_FILES, recompactMinFiles, "not be negative");
  }

  /**
   * These options for a sort that rewrites every file: {@link #REWRITE_ALL} on, {@link
   * #DECODE_FREE_MERGE} off (a sort decodes every row).
   */
  public RewriteOptions sortingAll() {
    return new RewriteOptions(
        targetFileSizeBytes,
        minFileSizeBytes,
        maxFileSizeBytes,
        minInputFiles,
        maxFileGroupSizeBytes,
        true,
        deleteFileThreshold,
        deleteRatioThreshold,
        partialProgressEnabled,
        partialProgressMaxCommits,
        partialProgressMaxFailedCommits,
        maxConcurrentFileGroupRewrites,
        useStartingSequenceNumber,
        removeDanglingDeletes,
        maxFilesToRewrite,
        false,
        minAge,
        rewriteCodec,
        rowGroupSizeBytes,
        recompactMinBytes,
        recompactMinFiles);
  }

  /** Parses {@code options} against the table's properties; unknown keys are rejected. */
  public static RewriteOptions parse(Table table, Map<String, String> options) {
    requireNonNull(table, "table is null");
    requireNonNull(options, "options is null");
    for (String key : options.keySet()) {
      if (!VALID_KEYS.contains(key) && !ACCEPTED_AND_IGNORED.contains(key)) {
        throw new IllegalArgumentException(
            "Unknown rewrite option '"
                + key
                + "'; valid options: "
                + String.join(", ", new TreeSet<>(VALID_KEYS)));
      }
    }
    // checked here with the rest, so a bad value is refused before anything runs
    ObjectReadOptions.parse(options, table.location());
    OptionReader reader = new OptionReader(options);
    long target =
        reader.longValue(
            TARGET_FILE_SIZE_BYTES,
            PropertyUtil.propertyAsLong(
                table.properties(),
                TableProperties.WRITE_TARGET_FILE_SIZE_BYTES,
                TableProperties.WRITE_TARGET_FILE_SIZE_BYTES_DEFAULT));
    int processors = Runtime.getRuntime().availableProcessors();
    int maxCommits =
        reader.intValue(PARTIAL_PROGRESS_MAX_COMMITS, PARTIAL_PROGRESS_MAX_COMMITS_DEFAULT);
    return new RewriteOptions(
        target,
        reader.longValue(MIN_FILE_SIZE_BYTES, SmallFileRule.defaults().thresholdBytes(target)),
        reader.longValue(MAX_FILE_SIZE_BYTES, (long) (target * MAX_FILE_SIZE_DEFAULT_RATIO)),
        reader.intValue(MIN_INPUT_FILES, MIN_INPUT_FILES_DEFAULT),
        reader.longValue(MAX_FILE_GROUP_SIZE_BYTES, MAX_FILE_GROUP_SIZE_BYTES_DEFAULT),
        reader.booleanValue(REWRITE_ALL, false),
        reader.intValue(DELETE_FILE_THRESHOLD, DELETE_FILE_THRESHOLD_DEFAULT),
        reader.doubleValue(DELETE_RATIO_THRESHOLD, DELETE_RATIO_THRESHOLD_DEFAULT),
        reader.booleanValue(PARTIAL_PROGRESS_ENABLED, false),
        maxCommits,
        reader.intValue(PARTIAL_PROGRESS_MAX_FAILED_COMMITS, maxCommits),
        reader.intValue(MAX_CONCURRENT_FILE_GROUP_REWRITES, processors),
        reader.booleanValue(USE_STARTING_SEQUENCE_NUMBER, true),
        reader.booleanValue(REMOVE_DANGLING_DELETES, true),
        reader.intValue(MAX_FILES_TO_REWRITE, Integer.MAX_VALUE),
        reader.booleanValue(DECODE_FREE_MERGE, true),
        options.containsKey(MIN_AGE)
            ? TimeInput.parseDuration(options.get(MIN_AGE), "rewrite option '" + MIN_AGE + "'")
            : Duration.ZERO,
        reader.booleanValue(REWRITE_CODEC, false),
        options.containsKey(ROW_GROUP_SIZE_BYTES)
            ? OptionalLong.of(reader.longValue(ROW_GROUP_SIZE_BYTES, 0))
            : OptionalLong.empty(),
        reader.longValue(RECOMPACT_MIN_BYTES, 0),
        reader.intValue(RECOMPACT_MIN_FILES, 0));
  }

  private static Set<String> union(Set<String> first, Set<String> second) {
    Set<String> union = new HashSet<>(first);
    union.addAll(second);
    return Set.copyOf(union);
  }

  private static void check(boolean valid, String key, Object value, String requirement) {
    if (!valid) {
      throw new IllegalArgumentException(
          "Invalid value " + value + " for rewrite option '" + key + "': must " + requirement);
    }
  }
}
