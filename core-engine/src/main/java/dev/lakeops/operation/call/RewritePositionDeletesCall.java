package dev.lakeops.operation.call;

import dev.lakeops.deletes.PositionDeleteRewriteResult;
import dev.lakeops.deletes.PositionDeleteRewriter;
import dev.lakeops.operation.ContractDefaults;
import dev.lakeops.operation.Operation;
import dev.lakeops.operation.OperationArguments;
import dev.lakeops.operation.Operations;
import dev.lakeops.runs.MeasuredRun;
import org.apache.iceberg.Table;

/**
 * {@code rewrite_position_deletes} bound to its arguments.
 *
 * @param minInputFiles rewrite partitions with at least this many position delete files
 * @param dryRun report what would be rewritten, change nothing
 */
public record RewritePositionDeletesCall(int minInputFiles, boolean dryRun)
    implements BoundOperation<PositionDeleteRewriteResult> {
  public RewritePositionDeletesCall {
    if (minInputFiles < 1) {
      throw new IllegalArgumentException("minInputFiles must be at least 1, got " + minInputFiles);
    }
  }

  /** Checks {@code arguments} and applies the contract's defaults. */
  public static RewritePositionDeletesCall bind(OperationArguments arguments) {
    ArgumentReader reader = new ArgumentReader(Operations.REWRITE_POSITION_DELETES, arguments);
    return new RewritePositionDeletesCall(
        reader
            .integer("min_input_files", 1, "use 1 or more")
            .orElse(ContractDefaults.MIN_INPUT_FILES),
        reader.flag(Operations.DRY_RUN));
  }

  @Override
  public Operation operation() {
    return Operations.REWRITE_POSITION_DELETES;
  }

  /** Rewrites on {@code table}; no host records this operation in its run ledger yet. */
  @Override
  public MeasuredRun<PositionDeleteRewriteResult> run(Table table, RunSettings settings) {
    return UnrecordedRuns.measure(
        () -> new PositionDeleteRewriter().rewrite(table, minInputFiles, dryRun));
  }
}
