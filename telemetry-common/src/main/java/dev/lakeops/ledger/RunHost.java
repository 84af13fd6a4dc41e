package dev.lakeops.ledger;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** Who started a run: the daemon, the command line or one of the engines' procedures and hooks. */
public enum RunHost {
  SERVE,
  CLI,
  SPARK,
  TRINO,
  FLINK,
  /** A compaction {@code lakeops serve} handed to a Spark application it started. */
  SPARK_SUBMIT;

  /**
   * The label stored in the ledger's {@code host} column, e.g. {@code serve}, {@code spark-submit}.
   */
  public String label() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  public static RunHost parse(String label) {
    for (RunHost host : values()) {
      if (host.label().equals(label.strip().toLowerCase(Locale.ROOT))) {
        return host;
      }
    }
    throw new IllegalArgumentException(
        "Unknown run host '"
            + label
            + "': use one of "
            + Arrays.stream(values()).map(RunHost::label).collect(Collectors.joining(", ")));
  }
}
