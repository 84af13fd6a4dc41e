package dev.lakeops.trigger;

import static java.util.Objects.requireNonNull;

import dev.lakeops.health.PartitionHealth;
import dev.lakeops.health.TableHealthReport;
import dev.lakeops.operation.MaintenanceOperation;
import dev.lakeops.policy.EffectivePolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@link DeleteFileChoice} for every partition of a table with delete files, gathered into what
 * runs: the partitions a compaction applies the deletes of, one rewrite of the position delete
 * files of the others, and the partitions that wait (shown as held, so {@code status} says why).
 *
 * @param compact partitions whose deletes a compaction applies
 * @param compactReasons why, one per partition
 * @param rewrite the rewrite of position delete files, if any partition chose it
 * @param waiting the partitions at half their threshold that wait, if any
 */
record DeleteChoices(
    List<PartitionHealth> compact,
    List<String> compactReasons,
    Optional<DueOperation> rewrite,
    Optional<HeldOperation> waiting) {
  DeleteChoices {
    compact = List.copyOf(requireNonNull(compact, "compact is null"));
    compactReasons = List.copyOf(requireNonNull(compactReasons, "compactReasons is null"));
    requireNonNull(rewrite, "rewrite is null");
    requireNonNull(waiting, "waiting is null");
  }

  /**
   * @param smallDue partitions due for their small files
   * @param smallRuns whether a compaction of those runs now (no guard holds it)
   * @param compactionHeld whether {@code compact.min-interval} holds compactions of the table
   */
  static DeleteChoices of(
      TableHealthReport health,
      EffectivePolicy policy,
      long target,
      List<PartitionHealth> smallDue,
      boolean smallRuns,
      boolean compactionHeld) {
    int smallHalf = (policy.minSmallFiles() + 1) / 2;
    List<PartitionHealth> compact = new ArrayList<>();
    List<String> compactReasons = new ArrayList<>();
    List<PartitionHealth> rewrite = new ArrayList<>();
    List<String> rewriteReasons = new ArrayList<>();
    List<String> waitReasons = new ArrayList<>();
    long benefit = 0;
    long cost = 0;
    for (PartitionHealth partition : health.partitions()) {
      if (partition.deleteFiles() == 0) {
        continue;
      }
      boolean withTable =
          smallRuns
              && (smallDue.contains(partition)
                  || (partition.smallDataFiles() >= smallHalf
                      && ConvergentPlan.of(partition, policy, target).mergeableFiles() > 0));
      DeleteFileChoice choice = DeleteFileChoice.of(partition, policy, withTable, compactionHeld);
      switch (choice.action()) {
        case COMPACT -> {
          compact.add(partition);
          compactReasons.add(choice.reason());
        }
        case REWRITE_DELETES -> {
          rewrite.add(partition);
          rewriteReasons.add(choice.reason());
          benefit += choice.benefit();
          cost += choice.costBytes();
        }
        case WAIT -> {
          if (!choice.reason().isEmpty()) {
            waitReasons.add(choice.reason());
          }
        }
      }
    }
    Optional<DueOperation> rewriteDue =
        rewrite.isEmpty()
            ? Optional.empty()
            : Optional.of(
                new DueOperation(
                    MaintenanceOperation.REWRITE_POSITION_DELETES,
                    CompactionTrigger.summarize(rewriteReasons),
                    rewrite,
                    PartitionFilter.where(health.specs(), rewrite),
                    Map.of(),
                    benefit,
                    cost));
    Optional<HeldOperation> waiting =
        waitReasons.isEmpty()
            ? Optional.empty()
            : Optional.of(
                new HeldOperation(
                    MaintenanceOperation.COMPACT,
                    CompactionTrigger.summarize(waitReasons),
                    Optional.empty()));
    return new DeleteChoices(compact, compactReasons, rewriteDue, waiting);
  }
}
