package dev.lakeops.operation.call;

import dev.lakeops.operation.Operation;
import dev.lakeops.runs.MeasuredRun;
import org.apache.iceberg.Table;

/**
 * An operation with its arguments checked and turned into the core's request, ready to run on a
 * table. Binding happens before the table is loaded, so a bad argument changes nothing and records
 * no run.
 *
 * @param <T> the operation's result
 */
public interface BoundOperation<T> {
  /** The operation of the contract this runs. */
  Operation operation();

  /** Whether this run only reports what it would do. */
  boolean dryRun();

  /** Runs on {@code table}, recorded as {@code settings} says; returns the result and its cost. */
  MeasuredRun<T> run(Table table, RunSettings settings);
}
