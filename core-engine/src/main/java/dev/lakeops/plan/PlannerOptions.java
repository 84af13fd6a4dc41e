package dev.lakeops.plan;

import static dev.lakeops.option.OptionCheck.notNegative;
import static dev.lakeops.option.OptionCheck.notNegativeDuration;
import static dev.lakeops.option.OptionCheck.positive;
import static dev.lakeops.option.OptionCheck.ratio;

import dev.lakeops.health.SmallFileRule;
import dev.lakeops.option.OptionType;
import dev.lakeops.option.OptionValues;
import dev.lakeops.option.RewriteOption;
import java.time.Duration;
import java.util.List;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.util.PropertyUtil;

/**
 * The rewrite options that choose which files are rewritten and how they are grouped.
 *
 * @param targetFileSizeBytes see {@link #TARGET_FILE_SIZE_BYTES}
 * @param minFileSizeBytes see {@link #MIN_FILE_SIZE_BYTES}
 * @param maxFileSizeBytes see {@link #MAX_FILE_SIZE_BYTES}
 * @param minInputFiles see {@link #MIN_INPUT_FILES}
 * @param maxFileGroupSizeBytes see {@link #MAX_FILE_GROUP_SIZE_BYTES}
 * @param rewriteAll see {@link #REWRITE_ALL}
 * @param deleteFileThreshold see {@link #DELETE_FILE_THRESHOLD}
 * @param deleteRatioThreshold see {@link #DELETE_RATIO_THRESHOLD}
 * @param maxFilesToRewrite see {@link #MAX_FILES_TO_REWRITE}
 * @param minAge see {@link #MIN_AGE}
 * @param recompactMinBytes see {@link #RECOMPACT_MIN_BYTES}
 * @param recompactMinFiles see {@link #RECOMPACT_MIN_FILES}
 */
public record PlannerOptions(
    long targetFileSizeBytes,
    long minFileSizeBytes,
    long maxFileSizeBytes,
    int minInputFiles,
    long maxFileGroupSizeBytes,
    boolean rewriteAll,
    int deleteFileThreshold,
    double deleteRatioThreshold,
    int maxFilesToRewrite,
    Duration minAge,
    long recompactMinBytes,
    int recompactMinFiles) {

  public static final RewriteOption<Long> TARGET_FILE_SIZE_BYTES =
      RewriteOption.of(
              "target-file-size-bytes", OptionType.LONG, "target size of the files written")
          .withDefault(
              "the table's " + TableProperties.WRITE_TARGET_FILE_SIZE_BYTES,
              values ->
                  PropertyUtil.propertyAsLong(
                      values.table().properties(),
                      TableProperties.WRITE_TARGET_FILE_SIZE_BYTES,
                      TableProperties.WRITE_TARGET_FILE_SIZE_BYTES_DEFAULT))
          .mustSatisfy(positive());

  /** Default of {@link #MIN_FILE_SIZE_BYTES}, as a share of the target size. */
  public static final double MIN_FILE_SIZE_DEFAULT_RATIO = SmallFileRule.DEFAULT_RATIO;

  public static final RewriteOption<Long> MIN_FILE_SIZE_BYTES =
      RewriteOption.of(
              "min-file-size-bytes", OptionType.LONG, "files smaller than this are rewritten")
          .withDefault(
              "75% of target-file-size-bytes",
              values ->
                  SmallFileRule.defaults().thresholdBytes(values.value(TARGET_FILE_SIZE_BYTES)))
          .mustSatisfy(notNegative());

  /** Default of {@link #MAX_FILE_SIZE_BYTES}, as a multiple of the target size. */
  public static final double MAX_FILE_SIZE_DEFAULT_RATIO = 1.80;

  public static final RewriteOption<Long> MAX_FILE_SIZE_BYTES =
      RewriteOption.of(
              "max-file-size-bytes",
              OptionType.LONG,
              "files larger than this are rewritten (split)")
          .withDefault(
              "180% of target-file-size-bytes",
              values ->
                  (long) (values.value(TARGET_FILE_SIZE_BYTES) * MAX_FILE_SIZE_DEFAULT_RATIO));

  public static final RewriteOption<Integer> MIN_INPUT_FILES =
      RewriteOption.of(
              "min-input-files",
              OptionType.INTEGER,
              "a group with at least this many files is rewritten even if small in bytes")
          .withDefault(5)
          .mustSatisfy(positive());

  public static final RewriteOption<Long> MAX_FILE_GROUP_SIZE_BYTES =
      RewriteOption.of(
              "max-file-group-size-bytes",
              OptionType.LONG,
              "largest amount of input data one file group may hold")
          .withDefault("107374182400 (100 GB)", values -> 100L * 1024 * 1024 * 1024)
          .mustSatisfy(positive());

  public static final RewriteOption<Boolean> REWRITE_ALL =
      RewriteOption.of("rewrite-all", OptionType.BOOLEAN, "rewrite every file regardless of size")
          .withDefault(false);

  public static final RewriteOption<Integer> DELETE_FILE_THRESHOLD =
      RewriteOption.of(
              "delete-file-threshold",
              OptionType.INTEGER,
              "a file with at least this many delete files is rewritten")
          .withDefault("2147483647 (no limit)", values -> Integer.MAX_VALUE)
          .mustSatisfy(positive());

  public static final RewriteOption<Double> DELETE_RATIO_THRESHOLD =
      RewriteOption.of(
              "delete-ratio-threshold",
              OptionType.DOUBLE,
              "a file whose deleted-row ratio reaches this is rewritten")
          .withDefault(0.3)
          .mustSatisfy(ratio());

  public static final RewriteOption<Integer> MAX_FILES_TO_REWRITE =
      RewriteOption.of(
              "max-files-to-rewrite",
              OptionType.INTEGER,
              "rewrite at most this many files in one run")
          .withDefault("2147483647 (no limit)", values -> Integer.MAX_VALUE)
          .mustSatisfy(positive());

  /**
   * LakeOps only: data files committed less than this long ago are left alone (they may belong to a
   * writer still at work), e.g. {@code 15m}. Read from the commit time of the snapshot that added
   * the file (format v2 and later).
   */
  public static final RewriteOption<Duration> MIN_AGE =
      RewriteOption.of(
              "min-age",
              OptionType.DURATION,
              "leave data files committed less than this long ago alone")
          .withDefault("0 (every file qualifies)", values -> Duration.ZERO)
          .mustSatisfy(notNegativeDuration());

  /**
   * LakeOps only: a small file an earlier compaction wrote (see {@code
   * dev.lakeops.health.CompactionOutputs}) is rewritten again only in a partition whose small files
   * that writers added since hold at least this many bytes (a target file's worth of new data), or
   * where {@link #RECOMPACT_MIN_FILES} applies; other small files and files with deletes are
   * rewritten as usual. The default 0 rewrites compaction outputs like any small file (Iceberg's
   * behaviour). Keeps a busy partition from re-compacting the same bytes at every run.
   */
  public static final RewriteOption<Long> RECOMPACT_MIN_BYTES =
      RewriteOption.of(
              "recompact-min-bytes",
              OptionType.LONG,
              "rewrite small compaction outputs again only once this much new small data arrived")
          .withDefault(0L)
          .mustSatisfy(notNegative());

  /**
   * LakeOps only: with {@link #RECOMPACT_MIN_BYTES}, small compaction outputs are rewritten anyway
   * in a partition that holds at least this many of them (so they never pile up); 0 sets no such
   * limit.
   */
  public static final RewriteOption<Integer> RECOMPACT_MIN_FILES =
      RewriteOption.of(
              "recompact-min-files",
              OptionType.INTEGER,
              "rewrite small compaction outputs anyway once a partition holds this many")
          .withDefault(0)
          .mustSatisfy(notNegative());

  /** The options of this group, in the order the docs list them. */
  public static final List<RewriteOption<?>> OPTIONS =
      List.of(
          TARGET_FILE_SIZE_BYTES,
          MIN_FILE_SIZE_BYTES,
          MAX_FILE_SIZE_BYTES,
          MIN_INPUT_FILES,
          MAX_FILE_GROUP_SIZE_BYTES,
          REWRITE_ALL,
          DELETE_FILE_THRESHOLD,
          DELETE_RATIO_THRESHOLD,
          MAX_FILES_TO_REWRITE,
          MIN_AGE,
          RECOMPACT_MIN_BYTES,
          RECOMPACT_MIN_FILES);

  public PlannerOptions {
    TARGET_FILE_SIZE_BYTES.checked(targetFileSizeBytes);
    MIN_FILE_SIZE_BYTES.checked(minFileSizeBytes);
    MIN_FILE_SIZE_BYTES.requireValid(
        minFileSizeBytes < targetFileSizeBytes,
        minFileSizeBytes,
        "be less than " + TARGET_FILE_SIZE_BYTES.key() + " (" + targetFileSizeBytes + ")");
    MAX_FILE_SIZE_BYTES.requireValid(
        maxFileSizeBytes > targetFileSizeBytes,
        maxFileSizeBytes,
        "be greater than " + TARGET_FILE_SIZE_BYTES.key() + " (" + targetFileSizeBytes + ")");
    MIN_INPUT_FILES.checked(minInputFiles);
    MAX_FILE_GROUP_SIZE_BYTES.checked(maxFileGroupSizeBytes);
    DELETE_FILE_THRESHOLD.checked(deleteFileThreshold);
    DELETE_RATIO_THRESHOLD.checked(deleteRatioThreshold);
    MAX_FILES_TO_REWRITE.checked(maxFilesToRewrite);
    MIN_AGE.checked(minAge);
    RECOMPACT_MIN_BYTES.checked(recompactMinBytes);
    RECOMPACT_MIN_FILES.checked(recompactMinFiles);
  }

  /** Reads this group from {@code values}. */
  public static PlannerOptions parse(OptionValues values) {
    return new PlannerOptions(
        values.value(TARGET_FILE_SIZE_BYTES),
        values.value(MIN_FILE_SIZE_BYTES),
        values.value(MAX_FILE_SIZE_BYTES),
        values.value(MIN_INPUT_FILES),
        values.value(MAX_FILE_GROUP_SIZE_BYTES),
        values.value(REWRITE_ALL),
        values.value(DELETE_FILE_THRESHOLD),
        values.value(DELETE_RATIO_THRESHOLD),
        values.value(MAX_FILES_TO_REWRITE),
        values.value(MIN_AGE),
        values.value(RECOMPACT_MIN_BYTES),
        values.value(RECOMPACT_MIN_FILES));
  }

  /** These options with every file rewritten regardless of size. */
  public PlannerOptions withRewriteAll() {
    return new PlannerOptions(
        targetFileSizeBytes,
        minFileSizeBytes,
        maxFileSizeBytes,
        minInputFiles,
        maxFileGroupSizeBytes,
        true,
        deleteFileThreshold,
        deleteRatioThreshold,
        maxFilesToRewrite,
        minAge,
        recompactMinBytes,
        recompactMinFiles);
  }
}
