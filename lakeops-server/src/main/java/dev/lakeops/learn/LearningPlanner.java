package dev.lakeops.learn;

import static java.util.Objects.requireNonNull;

import dev.lakeops.compact.Strategy;
import dev.lakeops.plan.RewriteOptions;
import dev.lakeops.unit.ByteSize;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Sizes each compaction from the table's own history: per rewrite path, its throughput per core,
 * peak memory per input byte and commit conflicts. It predicts duration and peak memory before the
 * run (memory grows with the input until it levels off at the peak per group of the table's runs),
 * asks the budget for the predicted peak plus headroom (never more than the ceiling, never less
 * than the minimum share), sets {@code max-concurrent-file-group-rewrites} to the groups that fit
 * that share, and turns on partial progress with smaller groups where conflicts were seen. Without
 * history the defaults apply and the run gets the whole ceiling. What the policy pins ({@link
 * PinnedValues}: {@code compact.memory}, {@code compact.options.*}) the planner never overrides; a
 * pinned memory share still caps at the ceiling.
 */
public final class LearningPlanner {
  private final RunHistory history;
  private final PlannerDefaults defaults;

  public LearningPlanner(RunHistory history, PlannerDefaults defaults) {
    this.history = requireNonNull(history, "history is null");
    this.defaults = requireNonNull(defaults, "defaults is null");
  }

  /**
   * The plan of a compaction of {@code inputBytes} on {@code table}.
   *
   * @param ceiling the most memory the run may have (its share of the lake's budget)
   * @param pinned what the policy pinned, which the plan leaves alone
   */
  public RunPlan plan(
      String table, Strategy strategy, long inputBytes, ByteSize ceiling, PinnedValues pinned) {
    requireNonNull(table, "table is null");
    requireNonNull(strategy, "strategy is null");
    requireNonNull(ceiling, "ceiling is null");
    requireNonNull(pinned, "pinned is null");
    Map<String, String> pinnedOptions = pinned.options();
    List<RunObservation> runs =
        history.compactions(table, defaults.window() * RewritePath.values().length);
    RewritePath lastBinpack =
        runs.stream()
            .map(RunObservation::path)
            .filter(path -> path != RewritePath.SORT)
            .findFirst()
            .orElse(RewritePath.COLUMNAR);
    RewritePath path = RewritePath.expected(strategy, lastBinpack);
    PerformanceModel model =
        new PerformanceModel(
            runs.stream().filter(run -> run.path() == path).toList(), defaults.window());
    PerformanceModel anyPath = new PerformanceModel(runs, defaults.window());

    int cores = Math.max(1, defaults.cores());
    OptionalInt pinnedGroups =
        pinnedOptions.containsKey(RewriteOptions.MAX_CONCURRENT_FILE_GROUP_REWRITES)
            ? OptionalInt.of(
                Math.max(
                    1,
                    Integer.parseInt(
                        pinnedOptions
                            .get(RewriteOptions.MAX_CONCURRENT_FILE_GROUP_REWRITES)
                            .strip())))
            : OptionalInt.empty();
    double memoryRatio = model.memoryPerInputByte().orElse(defaults.memoryPerInputByte().get(path));
    double byInput = memoryRatio * Math.max(1, inputBytes);
    long share;
    int groups;
    long predictedPeak;
    if (model.hasHistory()) {
      // memory grows with the input until it levels off at what each group held in the table's runs
      double perGroup = Math.max(1, model.peakMemoryPerGroup().orElseThrow());
      long atAllCores = Math.round(Math.min(byInput, perGroup * cores));
      share =
          pinned
              .memory()
              .map(memory -> Math.min(memory.bytes(), ceiling.bytes()))
              .orElseGet(
                  () ->
                      clamp(
                          Math.round(atAllCores * (1 + defaults.headroom())),
                          Math.min(defaults.minimumShare().bytes(), ceiling.bytes()),
                          ceiling.bytes()));
      groups = pinnedGroups.orElse((int) clamp((long) Math.floor(share / perGroup), 1, cores));
      // the engine sizes its buffers to the memory it is given: at most the share its runs used
      double byShare = model.memoryUseOfShare().orElseThrow() * share;
      predictedPeak =
          Math.min(
              ceiling.bytes(), Math.round(Math.min(Math.min(byInput, perGroup * groups), byShare)));
    } else {
      share =
          pinned
              .memory()
              .map(memory -> Math.min(memory.bytes(), ceiling.bytes()))
              .orElse(ceiling.bytes());
      groups = pinnedGroups.orElse(cores);
      predictedPeak = Math.min(ceiling.bytes(), Math.round(byInput));
    }
    double throughput = model.throughputPerCore().orElse(defaults.throughputPerCore().get(path));
    Duration predicted =
        Duration.ofMillis(Math.round(1000.0 * inputBytes / (throughput * Math.min(groups, cores))));
    boolean conflicts =
        anyPath.conflictsSeen() || history.recentCommitConflicts(table, defaults.window()) > 0;
    Map<String, String> options = options(pinnedOptions.keySet(), groups, conflicts);
    boolean partialProgress =
        Boolean.parseBoolean(
            pinnedOptions.getOrDefault(
                RewriteOptions.PARTIAL_PROGRESS_ENABLED,
                options.getOrDefault(RewriteOptions.PARTIAL_PROGRESS_ENABLED, "false")));
    return new RunPlan(
        path,
        predicted,
        ByteSize.ofBytes(predictedPeak),
        ByteSize.ofBytes(share),
        groups,
        partialProgress,
        options,
        model.hasHistory());
  }

  /**
   * The rewrite options the plan sets: its groups, and where conflicts were seen partial progress
   * and smaller groups.
   */
  private Map<String, String> options(Set<String> pinned, int groups, boolean conflicts) {
    Map<String, String> options = new LinkedHashMap<>();
    putUnlessPinned(
        options, pinned, RewriteOptions.MAX_CONCURRENT_FILE_GROUP_REWRITES, String.valueOf(groups));
    if (conflicts) {
      putUnlessPinned(options, pinned, RewriteOptions.PARTIAL_PROGRESS_ENABLED, "true");
      putUnlessPinned(
          options,
          pinned,
          RewriteOptions.MAX_FILE_GROUP_SIZE_BYTES,
          String.valueOf(defaults.smallerGroupBytes().bytes()));
    }
    return options;
  }

  private static void putUnlessPinned(
      Map<String, String> options, Set<String> pinned, String key, String value) {
    if (!pinned.contains(key)) {
      options.put(key, value);
    }
  }

  private static long clamp(long value, long low, long high) {
    return Math.max(low, Math.min(high, value));
  }
}
