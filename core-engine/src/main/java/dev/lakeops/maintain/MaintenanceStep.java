package dev.lakeops.maintain;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/** The steps of {@code maintain}, in the order they run. */
public enum MaintenanceStep {
  EXPIRE,
  ORPHANS,
  COMPACT,
  MANIFESTS;

  public String displayName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static MaintenanceStep parse(String text) {
    for (MaintenanceStep step : values()) {
      if (step.displayName().equals(text.trim().toLowerCase(Locale.ROOT))) {
        return step;
      }
    }
    throw new IllegalArgumentException(
        "Unknown maintenance step '"
            + text
            + "': use one of "
            + Arrays.stream(values())
                .map(MaintenanceStep::displayName)
                .collect(Collectors.joining(", ")));
  }

  public static Set<MaintenanceStep> parseAll(List<String> names) {
    Set<MaintenanceStep> steps = EnumSet.noneOf(MaintenanceStep.class);
    for (String name : names) {
      if (!name.isBlank()) {
        steps.add(parse(name));
      }
    }
    return steps;
  }
}
