package dev.lakeops.telemetry.advise;

import static java.util.Objects.requireNonNull;

import dev.lakeops.telemetry.event.TableName;
import dev.lakeops.telemetry.store.TableMatch;
import dev.lakeops.telemetry.store.TableUsage;
import dev.lakeops.telemetry.store.TelemetryStore;
import dev.lakeops.telemetry.store.UsageQuery;
import java.time.Clock;
import java.util.List;

/**
 * Proposes a sort or Z-order layout for a table from the filters engines ran on it. See {@link
 * ColumnScorer} for the ranking and {@link LayoutChooser} for the choice and the confidence. The
 * table's queries are found by its identity ({@link TableMatch}), whatever each engine called its
 * catalog; when none match, the advice lists the table names the store does hold, closest first.
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

  /** Advice for {@code table}, matched by namespace and table name in any catalog. */
  public SortAdvice advise(TableName table) {
    requireNonNull(table, "table is null");
    return advise(TableMatch.byName(table));
  }

  /**
   * Advice for the table {@code match} identifies; {@link LayoutKind#INSUFFICIENT_DATA} when too
   * few queries.
   */
  public SortAdvice advise(TableMatch match) {
    requireNonNull(match, "match is null");
    TableName table = match.name();
    UsageQuery query = UsageQuery.asOf(clock.instant(), options.halfLife());
    TableUsage usage = store.usage(match, query);
    AdviceExplainer explainer = new AdviceExplainer(options, query.lookback());
    if (usage.eventCount() == 0) {
      List<TableName> others =
          TableNameSuggestions.closestFirst(
              table, store.tableNames(query), SortAdvice.OTHER_TABLES_SHOWN);
      return new SortAdvice(
          table,
          LayoutKind.INSUFFICIENT_DATA,
          List.of(),
          0,
          false,
          explainer.nothingMatched(match, others),
          0,
          List.of(),
          List.of(),
          others,
          List.of());
    }
    List<ColumnRanking> rankings = new ColumnScorer(statisticsSource).rank(usage);
    if (usage.filterEventCount() < options.minimumFilterEvents()
        || rankings.isEmpty()
        || rankings.get(0).score() <= 0) {
      return new SortAdvice(
          table,
          LayoutKind.INSUFFICIENT_DATA,
          List.of(),
          0,
          false,
          explainer.insufficientData(table, usage.filterEventCount()) + explainer.recordedAs(usage),
          usage.filterEventCount(),
          rankings,
          usage.recordedAs(),
          List.of(),
          usage.queryClasses());
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
        rankings,
        usage.recordedAs(),
        List.of(),
        usage.queryClasses());
  }
}
