package dev.lakeops.operation.call;

import static java.util.Objects.requireNonNull;

import dev.lakeops.maintain.MaintenanceOptions;
import dev.lakeops.maintain.MaintenanceResult;
import dev.lakeops.maintain.MaintenanceStep;
import dev.lakeops.maintain.TableMaintainer;
import dev.lakeops.operation.Operation;
import dev.lakeops.operation.OperationArguments;
import dev.lakeops.operation.Operations;
import dev.lakeops.runs.MeasuredRun;
import java.util.Set;
import org.apache.iceberg.Table;

/**
 * {@code maintain} bound to the options of its steps: each step with its defaults, the compact step
 * verified as the CLI's {@code --verify} asks. Each step is its own run in the ledger; the cost
 * returned is that of all of them.
 *
 * @param options the steps to skip and the options of the others
 */
public record MaintainCall(MaintenanceOptions options)
    implements BoundOperation<MaintenanceResult> {
  public MaintainCall {
    requireNonNull(options, "options is null");
  }

  /** Checks {@code arguments} and applies the contract's defaults. */
  public static MaintainCall bind(OperationArguments arguments) {
    ArgumentReader reader =
        new ArgumentReader(Operations.MAINTAIN, arguments, Set.of(Operations.VERIFY));
    Set<MaintenanceStep> skipped;
    try {
      skipped = MaintenanceStep.parseAll(reader.texts("skip_steps"));
    } catch (IllegalArgumentException e) {
      throw reader.invalid("skip_steps", e);
    }
    MaintenanceOptions defaults =
        MaintenanceOptions.defaults(skipped, reader.flag(Operations.DRY_RUN));
    return new MaintainCall(
        new MaintenanceOptions(
            defaults.skipped(),
            defaults.expiry(),
            defaults.orphans(),
            defaults.compaction().toBuilder()
                .verify(reader.text(Operations.VERIFY).orElse(null))
                .build(),
            defaults.manifests()));
  }

  @Override
  public Operation operation() {
    return Operations.MAINTAIN;
  }

  @Override
  public boolean dryRun() {
    return options.compaction().dryRun();
  }

  @Override
  public MeasuredRun<MaintenanceResult> run(Table table, RunSettings settings) {
    return UnrecordedRuns.measure(
        () ->
            new TableMaintainer(
                    settings.listener(),
                    settings.recorder().withDryRun(dryRun()),
                    settings.lockOptions())
                .maintain(table, options));
  }
}
