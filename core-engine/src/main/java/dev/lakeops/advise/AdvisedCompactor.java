package dev.lakeops.advise;

import static java.util.Objects.requireNonNull;

import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.compact.Strategy;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.rewrite.OutputFileNames;
import org.apache.iceberg.Table;

/**
 * Compacts with the strategy a user asked for, {@code auto} included: resolves {@code auto} through
 * {@link AutoStrategy} (binpack, sort or zorder), then hands the resolved request to the {@link
 * TableCompactor}, which only ever sees a concrete strategy. The result names the choice ({@code
 * auto->sort}) and why it was made. Every host that takes a strategy from a user calls this.
 */
public final class AdvisedCompactor {
  private final TableCompactor compactor;

  public AdvisedCompactor(TableCompactor compactor) {
    this.compactor = requireNonNull(compactor, "compactor is null");
  }

  /** Compacts {@code table} as {@link TableCompactor#compact(Table, CompactionRequest)} does. */
  public CompactionResult compact(Table table, CompactionRequest request) {
    return compact(table, request, OutputFileNames.newOperationId());
  }

  /**
   * Compacts {@code table} as {@link TableCompactor#compact(Table, CompactionRequest, String)}
   * does, after resolving {@code auto}.
   */
  public CompactionResult compact(Table table, CompactionRequest request, String operationId) {
    requireNonNull(table, "table is null");
    requireNonNull(request, "request is null");
    requireNonNull(operationId, "operationId is null");
    if (request.strategy() != Strategy.AUTO) {
      return compactor.compact(table, request, operationId);
    }
    AutoStrategyChoice choice = AutoStrategy.choose(table, request);
    return compactor
        .compact(table, choice.request(), operationId)
        .withStrategy(choice.strategyName(), choice.reason());
  }
}
