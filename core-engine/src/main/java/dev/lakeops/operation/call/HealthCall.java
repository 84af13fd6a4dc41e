package dev.lakeops.operation.call;

import dev.lakeops.health.TableHealth;
import dev.lakeops.health.TableHealthInspector;
import dev.lakeops.operation.Operation;
import dev.lakeops.operation.OperationArguments;
import dev.lakeops.operation.Operations;
import dev.lakeops.runs.MeasuredRun;
import org.apache.iceberg.Table;

/** {@code health}, which takes no arguments: reads the layout from metadata, changes nothing. */
public record HealthCall() implements BoundOperation<TableHealth> {
  /** Checks that {@code arguments} hold none. */
  public static HealthCall bind(OperationArguments arguments) {
    new ArgumentReader(Operations.HEALTH, arguments);
    return new HealthCall();
  }

  @Override
  public Operation operation() {
    return Operations.HEALTH;
  }

  @Override
  public boolean dryRun() {
    return true;
  }

  /** Inspects {@code table}; a read of metadata is not recorded as a run. */
  @Override
  public MeasuredRun<TableHealth> run(Table table, RunSettings settings) {
    return UnrecordedRuns.measure(() -> TableHealthInspector.inspect(table));
  }
}
