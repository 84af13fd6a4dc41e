package dev.lakeops.telemetry.advise;

import static java.util.Objects.requireNonNull;

import dev.lakeops.telemetry.event.TableName;
import dev.lakeops.telemetry.store.TableUsage;
import dev.lakeops.telemetry.store.TelemetryStore;
import dev.lakeops.telemetry.store.UsageQuery;
import java.time.Clock;
import java.util.List;

/**
 * Proposes a sort or Z-order layout for a table from the filters engines ran on it. See {@link
 * ColumnScorer} for the ranking and {@link LayoutChooser} for the choice and the confidence.
 */
public final class SortAdvisor {
  private final TelemetryStore store;
  private final ColumnStatisticsSource statisticsSource;
  private final SortAdvisorOptions options;
  private final Clock clock;

  public SortAdvisor(
      TelemetryStore store,
      ColumnStatisticsSource statisticsSource,
      SortAdvisorOptions options,
      Clock clock) {
    this.store = requireNonNull(store, "store is null");
    this.statisticsSource = requireNonNull(statisticsSource, "statisticsSource is null");
    this.options = requireNonNull(options, "options is null");
    this.clock = requireNonNull(clock, "clock is null");
  }

  /** An advisor with default options, no column statistics and the system clock. */
  public static SortAdvisor withDefaults(TelemetryStore store) {
    return new SortAdvisor(
        store, ColumnStatisticsSource.none(), SortAdvisorOptions.defaults(), Clock.systemUTC());
  }

  /** Advice for {@code table}; {@link LayoutKind#INSUFFICIENT_DATA} when too few queries. */
  public SortAdvice advise(TableName table) {
    requireNonNull(table, "table is null");
    UsageQuery query = UsageQuery.asOf(clock.instant(), options.halfLife());
    TableUsage usage = store.usage(table, query);
    AdviceExplainer explainer = new AdviceExplainer(options, query.lookback());
    List<ColumnRanking> rankings = new ColumnScorer(statisticsSource).rank(usage);
    if (usage.filterEventCount() < options.minimumFilterEvents()
        || rankings.isEmpty()
        || rankings.get(0).score() <= 0) {
      return SortAdvice.insufficientData(
          table,
          explainer.insufficientData(table, usage.filterEventCount()),
          usage.filterEventCount(),
          rankings);
    }
    LayoutProposal proposal = new LayoutChooser(options).choose(rankings, usage.filterEventCount());
    return new SortAdvice(
        table,
        proposal.layout(),
        proposal.columns().stream().map(ColumnRanking::column).toList(),
        proposal.confidence(),
        proposal.confidence() >= options.confidenceThreshold(),
        explainer.explain(usage, proposal, rankings),
        usage.filterEventCount(),
        rankings);
  }
}
