package dev.lakeops.operation.call;

import static java.util.Objects.requireNonNull;

import dev.lakeops.deletes.equality.ConversionOptions;
import dev.lakeops.deletes.equality.ConversionResult;
import dev.lakeops.deletes.equality.EqualityDeleteConverter;
import dev.lakeops.operation.ContractDefaults;
import dev.lakeops.operation.Operation;
import dev.lakeops.operation.OperationArguments;
import dev.lakeops.operation.Operations;
import dev.lakeops.runs.MeasuredRun;
import org.apache.iceberg.Table;

/**
 * {@code convert_equality_deletes} bound to its options.
 *
 * @param options what to convert, within which budget
 */
public record ConvertEqualityDeletesCall(ConversionOptions options)
    implements BoundOperation<ConversionResult> {
  public ConvertEqualityDeletesCall {
    requireNonNull(options, "options is null");
  }

  /** Checks {@code arguments} and applies the contract's defaults. */
  public static ConvertEqualityDeletesCall bind(OperationArguments arguments) {
    ArgumentReader reader = new ArgumentReader(Operations.CONVERT_EQUALITY_DELETES, arguments);
    ConversionOptions options =
        ConversionOptions.defaults()
            .withWhere(reader.text("where").orElse(null))
            .withMemoryBudget(
                reader.size(Operations.MEMORY_BUDGET).orElse(ContractDefaults.MEMORY_BUDGET))
            .withDryRun(reader.flag(Operations.DRY_RUN));
    return new ConvertEqualityDeletesCall(
        reader.path("spill_directory").map(options::withSpillDirectory).orElse(options));
  }

  @Override
  public Operation operation() {
    return Operations.CONVERT_EQUALITY_DELETES;
  }

  @Override
  public boolean dryRun() {
    return options.dryRun();
  }

  /** Converts on {@code table}; no host records this operation in its run ledger yet. */
  @Override
  public MeasuredRun<ConversionResult> run(Table table, RunSettings settings) {
    return UnrecordedRuns.measure(() -> new EqualityDeleteConverter().convert(table, options));
  }
}
