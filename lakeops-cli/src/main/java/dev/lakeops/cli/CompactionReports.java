package dev.lakeops.cli;

import dev.lakeops.compact.CompactionResult;
import dev.lakeops.runs.RunFields;
import dev.lakeops.unit.ByteSize;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** Renders a compaction result as the CLI's JSON contract or as a human summary. */
final class CompactionReports {
  private CompactionReports() {}

  /**
   * The shared result fields ({@link RunFields#compaction}); no {@code strategy_reason} unless auto
   * chose.
   */
  static Map<String, Object> json(CompactionResult result) {
    Map<String, Object> json = new LinkedHashMap<>(RunFields.compaction(result));
    if (json.get(RunFields.STRATEGY_REASON) == null) {
      json.remove(RunFields.STRATEGY_REASON);
    }
    return json;
  }

  static String human(CompactionResult result) {
    String summary = summary(result);
    return result.strategyReason().isEmpty()
        ? summary
        : summary
            + System.lineSeparator()
            + "Strategy "
            + result.strategy()
            + ": "
            + result.strategyReason();
  }

  private static String summary(CompactionResult result) {
    if (result.dryRun()) {
      return String.format(
          Locale.ROOT,
          "Dry run: would rewrite %d files (%s) in %d file groups of %s; nothing changed.",
          result.inputFiles(),
          ByteSize.ofBytes(result.inputBytes()),
          result.fileGroups(),
          result.table());
    }
    if (result.inputFiles() == 0 && result.droppedGroups() == 0) {
      return "Nothing to compact in " + result.table() + ": no file group met the thresholds.";
    }
    return String.format(
            Locale.ROOT,
            "Compacted %s (%s): %d files (%s) -> %d files (%s) in %.1f s; %d delete files removed; "
                + "peak memory %s; snapshot %d",
            result.table(),
            result.strategy(),
            result.inputFiles(),
            ByteSize.ofBytes(result.inputBytes()),
            result.outputFiles(),
            ByteSize.ofBytes(result.outputBytes()),
            result.elapsed().toMillis() / 1000.0,
            result.removedDeleteFiles(),
            ByteSize.ofBytes(result.peakMemoryBytes()),
            result.snapshotId().orElse(-1))
        + (result.spillFiles() > 0
            ? String.format(
                Locale.ROOT,
                "; spilled %s in %d runs",
                ByteSize.ofBytes(result.spilledBytes()),
                result.spillFiles())
            : "")
        + verificationSummary(result)
        + fallbackSummary(result)
        + groupSummary(result);
  }

  /** {@code ; 6000 rows verified (counts)}; nothing with verification off. */
  private static String verificationSummary(CompactionResult result) {
    if (result.verificationMode().equals("off")) {
      return "";
    }
    return String.format(
            Locale.ROOT,
            "; %d rows verified (%s)",
            result.verifiedRows(),
            result.verificationMode())
        + (result.verificationFailures() > 0
            ? String.format(
                Locale.ROOT,
                ", %d %s failed verification",
                result.verificationFailures(),
                result.verificationFailures() == 1 ? "group" : "groups")
            : "");
  }

  /**
   * One line naming why groups were decoded, e.g. "Decoded 3 groups: 2 delete files, 1 not
   * Parquet".
   */
  private static String fallbackSummary(CompactionResult result) {
    if (result.fallbackReasons().isEmpty()) {
      return "";
    }
    int groups = result.fallbackReasons().values().stream().mapToInt(Integer::intValue).sum();
    StringBuilder text =
        new StringBuilder(System.lineSeparator())
            .append("Decoded ")
            .append(groups)
            .append(groups == 1 ? " group" : " groups")
            .append(" instead of merging without decoding: ");
    String separator = "";
    for (Map.Entry<String, Integer> reason : result.fallbackReasons().entrySet()) {
      text.append(separator).append(reason.getValue()).append(' ').append(reason.getKey());
      separator = ", ";
    }
    return text.toString();
  }

  private static String groupSummary(CompactionResult result) {
    if (result.retriedGroups() == 0 && result.droppedGroups() == 0 && result.commits() <= 1) {
      return "";
    }
    StringBuilder text =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "%nFile groups: %d committed in %d commits, %d retried after a conflict, %d dropped",
                result.committedGroups(),
                result.commits(),
                result.retriedGroups(),
                result.droppedGroups()));
    if (result.rebasedGroups() > 0) {
      text.append(
          String.format(
              Locale.ROOT,
              ", %d re-based onto concurrent position deletes",
              result.rebasedGroups()));
    }
    for (String reason : result.dropReasons()) {
      text.append(System.lineSeparator()).append("  dropped ").append(reason);
    }
    return text.toString();
  }
}
