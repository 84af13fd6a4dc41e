package dev.lakeops.compact;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** How a compaction lays out the rows it rewrites. */
public enum Strategy {
  BINPACK,
  SORT,
  ZORDER,
  AUTO;

  public static Strategy parse(String text) {
    for (Strategy strategy : values()) {
      if (strategy.name().equalsIgnoreCase(text.trim())) {
        return strategy;
      }
    }
    throw new IllegalArgumentException(
        "Unknown strategy '"
            + text
            + "': use one of "
            + Arrays.stream(values()).map(Strategy::displayName).collect(Collectors.joining(", ")));
  }

  public String displayName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
