package dev.lakeops.control;

import static java.util.Objects.requireNonNull;

import dev.lakeops.health.HealthScore;
import dev.lakeops.ledger.RunRecord;
import dev.lakeops.trigger.DueOperation;
import dev.lakeops.trigger.HeldOperation;
import java.util.List;
import java.util.Optional;

/**
 * One table in {@code lakeops status}.
 *
 * @param table {@code namespace.table}
 * @param score its health score with parts; empty when it could not be read
 * @param lastRun its newest ledger row, if any
 * @param due what is due now and why
 * @param held what a guard holds back and why
 * @param error why the table could not be evaluated (not Iceberg, unreadable), else empty
 * @param owner the serve member that maintains it, when several share the store
 * @param failing its operations failing in a row, suspended or not yet
 */
public record TableStatus(
    String table,
    Optional<HealthScore> score,
    Optional<RunRecord> lastRun,
    List<DueOperation> due,
    List<HeldOperation> held,
    Optional<String> error,
    Optional<String> owner,
    List<dev.lakeops.ledger.SuspensionRow> failing) {
  public TableStatus {
    requireNonNull(table, "table is null");
    requireNonNull(score, "score is null");
    requireNonNull(lastRun, "lastRun is null");
    due = List.copyOf(requireNonNull(due, "due is null"));
    held = List.copyOf(requireNonNull(held, "held is null"));
    requireNonNull(error, "error is null");
    requireNonNull(owner, "owner is null");
    failing = List.copyOf(requireNonNull(failing, "failing is null"));
  }
}
