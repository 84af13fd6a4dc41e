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
  FLINK;

  /** The label stored in the ledger's {@code host} column, e.g. {@code serve}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
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
