package dev.lakeops.spark.executors;

import java.util.Locale;

/**
 * Where {@code CALL lakeops.compact} rewrites file groups: {@code driver} (default) or {@code
 * executors}.
 */
public enum CompactExecution {
  /** On threads of the driver, under the call's {@code memory} budget. */
  DRIVER,
  /** As Spark tasks on the session's executors, each under its executor's budget. */
  EXECUTORS;

  public static CompactExecution parse(String text) {
    for (CompactExecution execution : values()) {
      if (execution.name().equalsIgnoreCase(text.trim())) {
        return execution;
      }
    }
    throw new IllegalArgumentException(
        "Unknown execution '" + text + "': use 'driver' or 'executors'");
  }

  public String displayName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
