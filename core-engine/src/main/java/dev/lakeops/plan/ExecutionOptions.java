package dev.lakeops.plan;

import static dev.lakeops.option.OptionCheck.positive;

import dev.lakeops.option.OptionType;
import dev.lakeops.option.OptionValues;
import dev.lakeops.option.RewriteOption;
import java.util.List;

/**
 * The rewrite options that decide how file groups are rewritten: how many at once, and whether row
 * groups may be copied instead of decoded.
 *
 * @param maxConcurrentFileGroupRewrites see {@link #MAX_CONCURRENT_FILE_GROUP_REWRITES}
 * @param decodeFreeMerge see {@link #DECODE_FREE_MERGE}
 */
public record ExecutionOptions(int maxConcurrentFileGroupRewrites, boolean decodeFreeMerge) {

  public static final RewriteOption<Integer> MAX_CONCURRENT_FILE_GROUP_REWRITES =
      RewriteOption.of(
              "max-concurrent-file-group-rewrites",
              OptionType.INTEGER,
              "file groups rewritten at the same time")
          .withDefault(
              "the number of available processors",
              values -> Runtime.getRuntime().availableProcessors())
          .mustSatisfy(positive());

  /**
   * LakeOps only: merge groups without deletes by copying row groups and pages instead of decoding;
   * the decoding path is used for every group this cannot take.
   */
  public static final RewriteOption<Boolean> DECODE_FREE_MERGE =
      RewriteOption.of(
              "decode-free-merge",
              OptionType.BOOLEAN,
              "merge groups without deletes by copying row groups instead of decoding rows")
          .withDefault(true);

  /** The options of this group, in the order the docs list them. */
  public static final List<RewriteOption<?>> OPTIONS =
      List.of(MAX_CONCURRENT_FILE_GROUP_REWRITES, DECODE_FREE_MERGE);

  public ExecutionOptions {
    MAX_CONCURRENT_FILE_GROUP_REWRITES.checked(maxConcurrentFileGroupRewrites);
  }

  /** Reads this group from {@code values}. */
  public static ExecutionOptions parse(OptionValues values) {
    return new ExecutionOptions(
        values.value(MAX_CONCURRENT_FILE_GROUP_REWRITES), values.value(DECODE_FREE_MERGE));
  }

  /** These options with the decode-free merge off (a sort decodes every row). */
  public ExecutionOptions decoding() {
    return new ExecutionOptions(maxConcurrentFileGroupRewrites, false);
  }
}
