package dev.lakeops.telemetry.advise;

import static java.util.Objects.requireNonNull;

import dev.lakeops.telemetry.event.PredicateKind;
import dev.lakeops.telemetry.event.TableName;
import dev.lakeops.telemetry.store.TableMatch;
import dev.lakeops.telemetry.store.TableUsage;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** Writes the one-paragraph explanation of an advice. */
final class AdviceExplainer {
  private final SortAdvisorOptions options;
  private final Duration lookback;

  AdviceExplainer(SortAdvisorOptions options, Duration lookback) {
    this.options = requireNonNull(options, "options is null");
    this.lookback = requireNonNull(lookback, "lookback is null");
  }

  String insufficientData(TableName table, long filterEventCount) {
    return String.format(
        Locale.ROOT,
        "No layout advised for %s: %d queries with filters were recorded in the last %s, and at"
            + " least %d are needed (option minimumFilterEvents). Record more queries or lower"
            + " the minimum.",
        table,
        filterEventCount,
        days(lookback),
        options.minimumFilterEvents());
  }

  String nothingMatched(TableMatch match, List<TableName> others) {
    String identity =
        match.identity().uuid().map(uuid -> "table UUID " + uuid + ", ").orElse("")
            + match.identity().location().map(location -> "location " + location + ", ").orElse("");
    String held =
        others.isEmpty()
            ? " The store holds no queries at all in that window: check that the engines record into this store."
            : " The store holds queries for: "
                + others.stream().map(TableName::toString).collect(Collectors.joining(", "))
                + " (closest to the name first). Check the table name, or that the engines record into this store.";
    return String.format(
        Locale.ROOT,
        "No layout advised for %s: no queries on it were recorded in the last %s (matched by %snamespace"
            + " %s and table %s in any catalog).%s",
        match.name(),
        days(lookback),
        identity,
        match.name().namespace(),
        match.name().table(),
        held);
  }

  /** " Queries were recorded as cat.db.events (...)." when an engine named the table otherwise. */
  String recordedAs(TableUsage usage) {
    List<TableName> others =
        usage.recordedAs().stream().filter(name -> !name.equals(usage.table())).toList();
    if (others.isEmpty()) {
      return "";
    }
    return " Queries were recorded as "
        + usage.recordedAs().stream().map(TableName::toString).collect(Collectors.joining(", "))
        + ".";
  }

  String explain(TableUsage usage, LayoutProposal proposal, List<ColumnRanking> rankings) {
    String names =
        proposal.columns().stream().map(ColumnRanking::column).collect(Collectors.joining(", "));
    String shares =
        proposal.columns().stream()
            .map(AdviceExplainer::describe)
            .collect(Collectors.joining("; "));
    String seen =
        String.format(
            Locale.ROOT,
            "Over the last %s (usage halves every %s and counts more for larger scans), %d queries"
                + " with filters from %d engine%s were recorded across %d filtered column%s.",
            days(lookback),
            days(options.halfLife()),
            usage.filterEventCount(),
            usage.distinctEngines(),
            usage.distinctEngines() == 1 ? "" : "s",
            rankings.size(),
            rankings.size() == 1 ? "" : "s");
    String why =
        proposal.layout() == LayoutKind.ZORDER
            ? String.format(
                Locale.ROOT,
                " Z-order %s by %s: %s. No single column dominates, and these are filtered with"
                    + " similar weight by value, so interleaving them keeps files prunable for"
                    + " filters on any of them.",
                usage.table(),
                names,
                shares)
            : String.format(
                Locale.ROOT,
                " Sort %s by %s: %s. Sorting on %s clusters the values these filters select, so"
                    + " readers skip most files.",
                usage.table(),
                names,
                shares,
                proposal.columns().size() == 1 ? "this column" : "these columns in this order");
    String trust =
        String.format(
            Locale.ROOT,
            " Confidence %.2f (%s).",
            proposal.confidence(),
            proposal.confidence() >= options.confidenceThreshold()
                ? "confident"
                : "below the threshold of " + options.confidenceThreshold());
    return seen + recordedAs(usage) + why + trust;
  }

  private static String describe(ColumnRanking ranking) {
    String predicate =
        ranking
            .mainPredicateKind()
            .map(kind -> ", mostly " + predicateName(kind) + " filters")
            .orElse("");
    String cardinality =
        ranking.distinctCount().isPresent()
            ? String.format(
                Locale.ROOT, ", about %,d distinct values", ranking.distinctCount().getAsLong())
            : "";
    return String.format(
        Locale.ROOT,
        "%s carries %.0f%% of the weighted filter use%s%s",
        ranking.column(),
        ranking.share() * 100,
        predicate,
        cardinality);
  }

  private static String predicateName(PredicateKind kind) {
    return switch (kind) {
      case EQUALITY -> "equality";
      case RANGE -> "range";
      case IN_LIST -> "in-list";
      case IS_NULL -> "is-null";
      case LIKE_PREFIX -> "like-prefix";
    };
  }

  private static String days(Duration duration) {
    long days = duration.toDays();
    if (days >= 1 && duration.equals(Duration.ofDays(days))) {
      return days == 1 ? "day" : days + " days";
    }
    return duration.toString();
  }
}
