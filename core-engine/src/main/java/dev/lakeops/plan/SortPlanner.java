package dev.lakeops.plan;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expression;

/**
 * Plans a sort or z-order rewrite. When the target order is one of the table's sort orders, every
 * file of a partition not yet written in that order ({@code sort_order_id} differs) is rewritten,
 * whatever its size, and files already in the order are left alone; {@code rewrite-all} rewrites
 * those too. When the order cannot be recorded on files (an order the table does not know, or a
 * z-order), sortedness cannot be told from metadata, so files are selected by the binpack size and
 * delete thresholds, as Iceberg's own sort and z-order strategies do by default. Groups are packed
 * per partition up to {@code max-file-group-size-bytes} either way. The statistics the rewrite
 * reads (z-order value ranges, columns constant in a group) are folded into per-group summaries
 * while a second scan streams the files' metrics; the plan holds no file's statistics.
 */
public final class SortPlanner {
  private final Table table;
  private final RewriteOptions options;
  private final OptionalInt sortOrderId;
  private final Set<Integer> summarizedFieldIds;

  /**
   * @param sortOrderId the id of the table sort order the rewrite writes in, empty when the order
   *     is not one of the table's
   * @param summarizedFieldIds the columns whose statistics the rewrite reads (sort key, constant
   *     columns): each group gets their {@link ColumnSummary}, the plan keeps no file's statistics
   */
  public SortPlanner(
      Table table,
      RewriteOptions options,
      OptionalInt sortOrderId,
      Set<Integer> summarizedFieldIds) {
    this.table = requireNonNull(table, "table is null");
    this.options = requireNonNull(options, "options is null");
    this.sortOrderId = requireNonNull(sortOrderId, "sortOrderId is null");
    this.summarizedFieldIds =
        Set.copyOf(requireNonNull(summarizedFieldIds, "summarizedFieldIds is null"));
  }

  public RewritePlan plan(Snapshot snapshot, Expression filter) {
    RewritePlan selected = select(snapshot, filter);
    return new RewritePlan(
        selected.startingSnapshotId(),
        selected.startingSequenceNumber(),
        GroupSummarizer.summarize(table, snapshot, selected.groups(), summarizedFieldIds),
        selected.dataFilesByDeleteFile(),
        selected.options());
  }

  private RewritePlan select(Snapshot snapshot, Expression filter) {
    if (sortOrderId.isEmpty() || options.rewriteAll()) {
      return new BinPackPlanner(table, options).plan(snapshot, filter);
    }
    RewritePlan everything = new BinPackPlanner(table, options.sortingAll()).plan(snapshot, filter);
    List<FileGroup> groups = new ArrayList<>();
    for (FileGroup group : everything.groups()) {
      List<FileScanTask> unsorted = group.tasks().stream().filter(this::notYetSorted).toList();
      if (!unsorted.isEmpty()) {
        groups.add(
            new FileGroup(
                groups.size(), group.specId(), group.partition(), group.partitionPath(), unsorted));
      }
    }
    return new RewritePlan(
        everything.startingSnapshotId(),
        everything.startingSequenceNumber(),
        groups,
        everything.dataFilesByDeleteFile(),
        options);
  }

  private boolean notYetSorted(FileScanTask task) {
    Integer fileOrder = task.file().sortOrderId();
    return fileOrder == null || fileOrder != sortOrderId.getAsInt();
  }
}
