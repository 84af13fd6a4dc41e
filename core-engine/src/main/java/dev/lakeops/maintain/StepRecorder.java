package dev.lakeops.maintain;

import java.util.function.Supplier;

/** Wraps each step of {@code maintain}, e.g. to record it as a run in the ledger. */
public interface StepRecorder {
  /** Runs every step as it is. */
  StepRecorder NONE =
      new StepRecorder() {
        @Override
        public <T> T step(MaintenanceStep step, Supplier<T> work) {
          return work.get();
        }
      };

  /** Runs {@code work}, the step {@code step}, and returns its result. */
  <T> T step(MaintenanceStep step, Supplier<T> work);
}
