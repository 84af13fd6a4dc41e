package dev.lakeops.telemetry.advise;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;

/**
 * Chooses between sort and Z-order from ranked columns.
 *
 * <ol>
 *   <li>A top column with at least {@code dominantShare} of the score: sort by it, then by the next
 *       columns with at least {@code minimumColumnShare}.
 *   <li>Otherwise, when the leading 2 to 4 columns each score at least {@code zorderSimilarity}
 *       times the top score and are filtered mostly by equality, in-list or range: Z-order them.
 *   <li>Otherwise: sort by the columns with at least {@code minimumColumnShare}, in rank order.
 * </ol>
 *
 * Confidence is a layout factor times a data factor. The layout factor of a sort is {@code min(1,
 * topShare / dominantShare) * (1 - 0.5 * secondScore / topScore)}; of a Z-order, {@code groupShare
 * * (0.5 + 0.5 * lowestScore / highestScore)}. The data factor says how much of the chosen columns'
 * share the number of queries supports: the 95 % Wilson score lower bound of that share over {@code
 * filterEvents} queries, divided by the share. Queries that agree need few of them (32 queries on
 * one column: 32 / (32 + 1.96²) = 0.893); queries that disagree need many more.
 */
final class LayoutChooser {
  /** A column joins a Z-order only if at least this part of its filter weight prunes by value. */
  static final double ZORDER_MINIMUM_RANGE_OR_EQUALITY_SHARE = 0.5;

  private final SortAdvisorOptions options;

  LayoutChooser(SortAdvisorOptions options) {
    this.options = requireNonNull(options, "options is null");
  }

  LayoutProposal choose(List<ColumnRanking> rankings, long filterEventCount) {
    ColumnRanking top = rankings.get(0);
    List<ColumnRanking> zorderGroup = zorderGroup(rankings);
    if (top.share() < options.dominantShare() && zorderGroup.size() >= 2) {
      double groupShare = zorderGroup.stream().mapToDouble(ColumnRanking::share).sum();
      double lowest = zorderGroup.get(zorderGroup.size() - 1).score();
      double evenness = lowest / top.score();
      return new LayoutProposal(
          LayoutKind.ZORDER,
          zorderGroup,
          round(groupShare * (0.5 + 0.5 * evenness) * dataFactor(groupShare, filterEventCount)));
    }
    List<ColumnRanking> sortColumns = sortColumns(rankings);
    double secondRatio = rankings.size() > 1 ? rankings.get(1).score() / top.score() : 0;
    double layoutFactor =
        Math.min(1.0, top.share() / options.dominantShare()) * (1 - 0.5 * secondRatio);
    return new LayoutProposal(
        LayoutKind.SORT,
        sortColumns,
        round(layoutFactor * dataFactor(top.share(), filterEventCount)));
  }

  /** See {@link WorkloadConfidence#dataFactor}. */
  static double dataFactor(double share, long queries) {
    return WorkloadConfidence.dataFactor(share, queries);
  }

  private List<ColumnRanking> zorderGroup(List<ColumnRanking> rankings) {
    List<ColumnRanking> group = new ArrayList<>();
    double topScore = rankings.get(0).score();
    for (ColumnRanking ranking : rankings) {
      if (group.size() == options.maximumZorderColumns()
          || ranking.score() < options.zorderSimilarity() * topScore
          || ranking.rangeOrEqualityShare() < ZORDER_MINIMUM_RANGE_OR_EQUALITY_SHARE) {
        break;
      }
      group.add(ranking);
    }
    return group;
  }

  private List<ColumnRanking> sortColumns(List<ColumnRanking> rankings) {
    List<ColumnRanking> columns = new ArrayList<>();
    columns.add(rankings.get(0));
    for (ColumnRanking ranking : rankings.subList(1, rankings.size())) {
      if (columns.size() == options.maximumSortColumns()
          || ranking.share() < options.minimumColumnShare()) {
        break;
      }
      columns.add(ranking);
    }
    return columns;
  }

  private static double round(double value) {
    return Math.round(value * 1000) / 1000.0;
  }
}
