package dev.lakeops.operation.call;

import dev.lakeops.deletes.DanglingDeleteRemover;
import dev.lakeops.deletes.DanglingDeleteResult;
import dev.lakeops.operation.Operation;
import dev.lakeops.operation.OperationArguments;
import dev.lakeops.operation.Operations;
import dev.lakeops.runs.MeasuredRun;
import org.apache.iceberg.Table;

/**
 * {@code remove_dangling_deletes} bound to its arguments.
 *
 * @param dryRun report the dangling delete files, change nothing
 */
public record RemoveDanglingDeletesCall(boolean dryRun)
    implements BoundOperation<DanglingDeleteResult> {
  /** Checks {@code arguments} and applies the contract's defaults. */
  public static RemoveDanglingDeletesCall bind(OperationArguments arguments) {
    return new RemoveDanglingDeletesCall(
        new ArgumentReader(Operations.REMOVE_DANGLING_DELETES, arguments).flag(Operations.DRY_RUN));
  }

  @Override
  public Operation operation() {
    return Operations.REMOVE_DANGLING_DELETES;
  }

  /** Removes on {@code table}; no host records this operation in its run ledger yet. */
  @Override
  public MeasuredRun<DanglingDeleteResult> run(Table table, RunSettings settings) {
    return UnrecordedRuns.measure(() -> new DanglingDeleteRemover().remove(table, dryRun));
  }
}
