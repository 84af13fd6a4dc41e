package dev.lakeops.plan;

import dev.lakeops.commit.CommitRetryPolicy;
import dev.lakeops.commit.CommitSummary;
import dev.lakeops.commit.RewriteCommitManager;
import dev.lakeops.commit.RewriteCommitter;
import dev.lakeops.lock.RenewalGuard;
import dev.lakeops.rewrite.RewrittenGroup;
import dev.lakeops.rewrite.sort.SortLayout;
import dev.lakeops.testing.MetadataOnlyTables;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.hadoop.HadoopCatalog;

/**
 * Plans and commits a metadata-only table of many files (see {@link MetadataOnlyTables}) in this
 * JVM, whose heap limit is the point: a binpack plan, a sort plan, then the commit of the binpack
 * plan's groups, each rewritten into {@code outputs-per-group} metadata-only files, through the
 * real committer. Prints one line per phase, {@code phase=<name> key=value ...}, with the heap's
 * peak use during the phase (MemoryMXBean pool peaks, reset before it) and its live size after a
 * full GC at the end of it. Afterwards the table is rolled back to the snapshot it started from.
 *
 * <p>Arguments: {@code <warehouse> <max-file-group-size-bytes> <outputs-per-group>}; the table is
 * {@code db.t} of a hadoop catalog.
 */
public final class PlanAndCommitAtScale {
  private PlanAndCommitAtScale() {}

  public static void main(String[] args) {
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), args[0]);
    Table table = catalog.loadTable(TableIdentifier.of("db", "t"));
    long groupBytes = Long.parseLong(args[1]);
    int outputsPerGroup = Integer.parseInt(args[2]);
    Map<String, String> optionMap =
        Map.of(RewriteOptions.MAX_FILE_GROUP_SIZE_BYTES, Long.toString(groupBytes));
    RewriteOptions options = RewriteOptions.parse(table, optionMap);

    RewritePlan binpack =
        measure(
            "plan-binpack",
            () ->
                new BinPackPlanner(table, options)
                    .plan(table.currentSnapshot(), Expressions.alwaysTrue()));
    SortLayout layout = SortLayout.sortOrder(table, Optional.of("id"));
    RewritePlan sorted =
        measure(
            "plan-sort",
            () ->
                new SortPlanner(
                        table,
                        options,
                        layout.recordedSortOrderId(),
                        layout.summarizedFieldIds(table.schema()))
                    .plan(table.currentSnapshot(), Expressions.alwaysTrue()));
    sorted = null;
    long startingSnapshotId = table.currentSnapshot().snapshotId();
    CommitSummary summary =
        measure("commit", () -> commit(table, binpack, options, outputsPerGroup));
    table.refresh();
    String filesAfter = table.currentSnapshot().summary().get("total-data-files");
    // leaves the table as it was, for the next run
    table.manageSnapshots().rollbackTo(startingSnapshotId).commit();
    System.out.printf(
        Locale.ROOT,
        "result planned-files=%d planned-groups=%d committed-groups=%d snapshots=%d data-files-after=%s%n",
        binpack.fileCount(),
        binpack.groups().size(),
        summary.committedGroups().size(),
        summary.snapshotIds().size(),
        filesAfter);
  }

  private static CommitSummary commit(
      Table table, RewritePlan plan, RewriteOptions options, int outputsPerGroup) {
    RewriteCommitManager commits =
        new RewriteCommitManager(
            new RewriteCommitter(table, plan, CommitRetryPolicy.DEFAULT, RenewalGuard.NONE),
            table.io(),
            options,
            plan.groups().size());
    long number = 10_000_000L;
    for (FileGroup group : plan.groups()) {
      List<DataFile> outputs = new ArrayList<>();
      long records = group.recordCount() / outputsPerGroup;
      long bytes = group.inputBytes() / outputsPerGroup;
      int part = group.partition().get(0, Integer.class);
      for (int output = 0; output < outputsPerGroup; output++) {
        outputs.add(MetadataOnlyTables.dataFile(table, part, number++, bytes, records));
      }
      commits.accept(new RewrittenGroup(group, outputs, group.inputBytes(), 0));
    }
    return commits.finish();
  }

  private static <T> T measure(String phase, Supplier<T> work) {
    System.gc();
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        pool.resetPeakUsage();
      }
    }
    long started = System.nanoTime();
    T result = work.get();
    long millis = (System.nanoTime() - started) / 1_000_000;
    long peak = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        peak += pool.getPeakUsage().getUsed();
      }
    }
    System.gc();
    long live = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    String size =
        result instanceof RewritePlan plan
            ? " files=" + plan.fileCount() + " groups=" + plan.groups().size()
            : "";
    System.out.printf(
        Locale.ROOT,
        "phase=%s millis=%d peak-heap-bytes=%d live-heap-bytes=%d max-heap-bytes=%d%s%n",
        phase,
        millis,
        peak,
        live,
        Runtime.getRuntime().maxMemory(),
        size);
    return result;
  }
}
