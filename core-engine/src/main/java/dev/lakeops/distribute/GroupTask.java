package dev.lakeops.distribute;

import static java.util.Objects.requireNonNull;

import dev.lakeops.compact.PlannedRewrite;
import dev.lakeops.compact.Strategy;
import dev.lakeops.plan.FileGroup;
import dev.lakeops.rewrite.sort.SortLayout;
import dev.lakeops.verify.VerificationMode;
import java.io.Serial;
import java.io.Serializable;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.SerializableTable;
import org.apache.iceberg.Table;

/**
 * One file group as a self-contained task: everything a worker needs to rewrite it, and nothing
 * that ties it to the driver. The table is Iceberg's {@link SerializableTable} (schema, specs, sort
 * orders, properties, location provider and FileIO as of planning); the group holds its scan tasks
 * with their delete files. The worker decides its own memory share and spill directory.
 *
 * @param table the table as planned, serializable
 * @param startingSnapshotId the snapshot the group was planned from
 * @param group the data files to rewrite with the delete files that apply to them
 * @param strategy binpack, sort or zorder
 * @param sortOrder for sort: the order as text; empty means the table's sort order
 * @param zorderColumns for zorder: the columns to interleave
 * @param options the rewrite options as given (target file size, decode-free merge, ...); the
 *     table's write properties travel with the table
 * @param operationId the run's id, part of every output file name
 * @param verification what the rewrite counts and checksums for the driver's verifier
 */
public record GroupTask(
    Table table,
    long startingSnapshotId,
    FileGroup group,
    Strategy strategy,
    String sortOrder,
    List<String> zorderColumns,
    Map<String, String> options,
    String operationId,
    VerificationMode verification)
    implements Serializable {
  @Serial private static final long serialVersionUID = 1L;

  public GroupTask {
    requireNonNull(table, "table is null");
    requireNonNull(group, "group is null");
    requireNonNull(strategy, "strategy is null");
    requireNonNull(sortOrder, "sortOrder is null");
    zorderColumns = List.copyOf(requireNonNull(zorderColumns, "zorderColumns is null"));
    options = Map.copyOf(requireNonNull(options, "options is null"));
    requireNonNull(operationId, "operationId is null");
    requireNonNull(verification, "verification is null");
    if (strategy == Strategy.AUTO) {
      throw new IllegalArgumentException(
          "Strategy 'auto' is resolved on the driver before groups become tasks");
    }
  }

  /** The task of {@code group} of a planned compaction; {@code table} is already serializable. */
  static GroupTask of(Table table, PlannedRewrite rewrite, FileGroup group) {
    return new GroupTask(
        table,
        rewrite.plan().startingSnapshotId(),
        group,
        rewrite.request().strategy(),
        rewrite.request().sortOrder().orElse(""),
        rewrite.request().zorderColumns(),
        rewrite.request().options(),
        rewrite.operationId(),
        rewrite.request().verificationMode());
  }

  /** A task in its strategy's default verification mode. */
  public GroupTask(
      Table table,
      long startingSnapshotId,
      FileGroup group,
      Strategy strategy,
      String sortOrder,
      List<String> zorderColumns,
      Map<String, String> options,
      String operationId) {
    this(
        table,
        startingSnapshotId,
        group,
        strategy,
        sortOrder,
        zorderColumns,
        options,
        operationId,
        strategy == Strategy.BINPACK ? VerificationMode.COUNTS : VerificationMode.CHECKSUM);
  }

  /** A copy of {@code table} that can be shipped to workers. */
  static Table serializable(Table table) {
    return table instanceof SerializableTable ? table : SerializableTable.copyOf(table);
  }

  /** The row layout of a sort or zorder task, rebuilt from the table; empty for binpack. */
  Optional<SortLayout> layout() {
    return switch (strategy) {
      case BINPACK -> Optional.empty();
      case SORT ->
          Optional.of(
              SortLayout.sortOrder(table, Optional.of(sortOrder).filter(text -> !text.isBlank())));
      case ZORDER -> Optional.of(SortLayout.zorder(table, zorderColumns));
      case AUTO -> throw new IllegalStateException("Strategy 'auto' is resolved on the driver");
    };
  }

  /** e.g. {@code group 3 (day=2026-11-01, 12 files) of db.events}. */
  public String describe() {
    return "file group "
        + group.index()
        + " ("
        + group.partitionPath()
        + ", "
        + group.fileCount()
        + " files) of "
        + table.name();
  }
}
