package dev.lakeops.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waits for a condition instead of for a fixed time: polls it every 10 ms up to a timeout. */
public final class Conditions {
  private static final long POLL_MILLIS = 10;

  private Conditions() {}

  /**
   * Returns as soon as {@code condition} holds.
   *
   * @throws AssertionError naming {@code what} when it still does not hold after {@code timeout}
   */
  public static void await(String what, Duration timeout, BooleanSupplier condition) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("Waited " + timeout + " for " + what + " in vain");
      }
      try {
        Thread.sleep(POLL_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("Interrupted while waiting for " + what, e);
      }
    }
  }
}
