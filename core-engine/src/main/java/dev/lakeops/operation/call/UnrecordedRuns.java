package dev.lakeops.operation.call;

import dev.lakeops.cost.ObjectRequestMeter;
import dev.lakeops.cost.RequestWindow;
import dev.lakeops.ledger.RunCost;
import dev.lakeops.runs.MeasuredRun;
import java.util.function.Supplier;

/** Runs that no run ledger records, measured for what they cost all the same. */
final class UnrecordedRuns {
  private UnrecordedRuns() {}

  static <T> MeasuredRun<T> measure(Supplier<T> work) {
    RequestWindow window = ObjectRequestMeter.process().open();
    T result;
    RunCost cost;
    try {
      result = work.get();
    } finally {
      cost = window.close();
    }
    return new MeasuredRun<>(result, cost);
  }
}
