package dev.lakeops.trigger;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * What the triggers decided for one table at one evaluation.
 *
 * @param due operations to run now
 * @param held operations whose trigger fired but a guard holds back
 */
public record TriggerDecision(List<DueOperation> due, List<HeldOperation> held) {
  public TriggerDecision {
    due = List.copyOf(requireNonNull(due, "due is null"));
    held = List.copyOf(requireNonNull(held, "held is null"));
  }
}
