package dev.lakeops.plan;

import static dev.lakeops.option.OptionCheck.notNegative;
import static dev.lakeops.option.OptionCheck.positive;

import dev.lakeops.option.OptionType;
import dev.lakeops.option.OptionValues;
import dev.lakeops.option.RewriteOption;
import java.util.List;

/**
 * The rewrite options that decide how rewritten file groups are committed.
 *
 * @param partialProgressEnabled see {@link #PARTIAL_PROGRESS_ENABLED}
 * @param partialProgressMaxCommits see {@link #PARTIAL_PROGRESS_MAX_COMMITS}
 * @param partialProgressMaxFailedCommits see {@link #PARTIAL_PROGRESS_MAX_FAILED_COMMITS}
 * @param useStartingSequenceNumber see {@link #USE_STARTING_SEQUENCE_NUMBER}
 * @param removeDanglingDeletes see {@link #REMOVE_DANGLING_DELETES}
 */
public record CommitOptions(
    boolean partialProgressEnabled,
    int partialProgressMaxCommits,
    int partialProgressMaxFailedCommits,
    boolean useStartingSequenceNumber,
    boolean removeDanglingDeletes) {

  public static final RewriteOption<Boolean> PARTIAL_PROGRESS_ENABLED =
      RewriteOption.of(
              "partial-progress.enabled",
              OptionType.BOOLEAN,
              "commit file groups in several commits as they finish")
          .withDefault(false);

  public static final RewriteOption<Integer> PARTIAL_PROGRESS_MAX_COMMITS =
      RewriteOption.of(
              "partial-progress.max-commits",
              OptionType.INTEGER,
              "most commits a partial-progress run makes")
          .withDefault(10)
          .mustSatisfy(positive());

  public static final RewriteOption<Integer> PARTIAL_PROGRESS_MAX_FAILED_COMMITS =
      RewriteOption.of(
              "partial-progress.max-failed-commits",
              OptionType.INTEGER,
              "most failed commits a partial-progress run tolerates before failing")
          .withDefault(
              "partial-progress.max-commits", values -> values.value(PARTIAL_PROGRESS_MAX_COMMITS))
          .mustSatisfy(notNegative());

  public static final RewriteOption<Boolean> USE_STARTING_SEQUENCE_NUMBER =
      RewriteOption.of(
              "use-starting-sequence-number",
              OptionType.BOOLEAN,
              "new files carry the starting snapshot's sequence number so newer deletes still apply")
          .withDefault(true);

  public static final RewriteOption<Boolean> REMOVE_DANGLING_DELETES =
      RewriteOption.of(
              "remove-dangling-deletes",
              OptionType.BOOLEAN,
              "remove delete files that no longer apply to any live data file")
          .withDefault(true);

  /** The options of this group, in the order the docs list them. */
  public static final List<RewriteOption<?>> OPTIONS =
      List.of(
          PARTIAL_PROGRESS_ENABLED,
          PARTIAL_PROGRESS_MAX_COMMITS,
          PARTIAL_PROGRESS_MAX_FAILED_COMMITS,
          USE_STARTING_SEQUENCE_NUMBER,
          REMOVE_DANGLING_DELETES);

  public CommitOptions {
    PARTIAL_PROGRESS_MAX_COMMITS.checked(partialProgressMaxCommits);
    PARTIAL_PROGRESS_MAX_FAILED_COMMITS.checked(partialProgressMaxFailedCommits);
  }

  /** Reads this group from {@code values}. */
  public static CommitOptions parse(OptionValues values) {
    return new CommitOptions(
        values.value(PARTIAL_PROGRESS_ENABLED),
        values.value(PARTIAL_PROGRESS_MAX_COMMITS),
        values.value(PARTIAL_PROGRESS_MAX_FAILED_COMMITS),
        values.value(USE_STARTING_SEQUENCE_NUMBER),
        values.value(REMOVE_DANGLING_DELETES));
  }
}
