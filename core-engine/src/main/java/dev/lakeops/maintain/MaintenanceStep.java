package dev.lakeops.maintain;

import static java.util.Objects.requireNonNull;

import dev.lakeops.operation.MaintenanceOperation;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The steps of {@code maintain}, in the order they run: each is one {@link MaintenanceOperation}
 * under the short name {@code skip_steps} and {@code --skip} accept.
 */
public enum MaintenanceStep {
  EXPIRE("expire", MaintenanceOperation.EXPIRE_SNAPSHOTS),
  ORPHANS("orphans", MaintenanceOperation.REMOVE_ORPHAN_FILES),
  COMPACT("compact", MaintenanceOperation.COMPACT),
  MANIFESTS("manifests", MaintenanceOperation.REWRITE_MANIFESTS);

  private final String displayName;
  private final MaintenanceOperation operation;

  MaintenanceStep(String displayName, MaintenanceOperation operation) {
    this.displayName = requireNonNull(displayName, "displayName is null");
    this.operation = requireNonNull(operation, "operation is null");
  }

  /** The step's name in {@code skip_steps}, {@code --skip} and maintain's report. */
  public String displayName() {
    return displayName;
  }

  /** The operation the step runs (and the run ledger records it as). */
  public MaintenanceOperation operation() {
    return operation;
  }

  public static MaintenanceStep parse(String text) {
    for (MaintenanceStep step : values()) {
      if (step.displayName.equals(text.trim().toLowerCase(Locale.ROOT))) {
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
