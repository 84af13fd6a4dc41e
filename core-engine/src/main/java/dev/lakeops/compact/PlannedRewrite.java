package dev.lakeops.compact;

import static java.util.Objects.requireNonNull;

import dev.lakeops.plan.RewriteOptions;
import dev.lakeops.plan.RewritePlan;
import dev.lakeops.rewrite.sort.SortLayout;
import java.util.Optional;
import org.apache.iceberg.Table;

/**
 * A planned compaction, as handed to a {@link GroupExecution}.
 *
 * @param table the table, as loaded on the driver
 * @param plan the groups and the snapshot they were planned from
 * @param request what the caller asked for
 * @param options the parsed rewrite options
 * @param layout the row layout of a sort or z-order; empty for binpack
 * @param operationId unique per run; part of every output file name
 * @param concurrency how many groups are rewritten at once
 */
public record PlannedRewrite(
    Table table,
    RewritePlan plan,
    CompactionRequest request,
    RewriteOptions options,
    Optional<SortLayout> layout,
    String operationId,
    int concurrency) {
  public PlannedRewrite {
    requireNonNull(table, "table is null");
    requireNonNull(plan, "plan is null");
    requireNonNull(request, "request is null");
    requireNonNull(options, "options is null");
    requireNonNull(layout, "layout is null");
    requireNonNull(operationId, "operationId is null");
    if (concurrency < 1) {
      throw new IllegalArgumentException("concurrency must be at least 1: " + concurrency);
    }
  }
}
