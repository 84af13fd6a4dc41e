package dev.lakeops.control;

import static java.util.Objects.requireNonNull;

import dev.lakeops.trigger.DueOperation;
import dev.lakeops.trigger.HeldOperation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Logs what an evaluation decided for a table: what is due, held or suspended, or nothing due with
 * the health score; a decision the same as the table's last one is not logged again.
 */
final class DecisionLog {
  private final DaemonLog log;
  private final FailurePolicy failures;
  private final boolean dryRun;
  private final Map<TableIdentifier, String> lastLogged = new HashMap<>();

  DecisionLog(DaemonLog log, FailurePolicy failures, boolean dryRun) {
    this.log = requireNonNull(log, "log is null");
    this.failures = requireNonNull(failures, "failures is null");
    this.dryRun = dryRun;
  }

  void forget(TableIdentifier table) {
    lastLogged.remove(table);
  }

  void decided(
      TableIdentifier table, TableEvaluation evaluation, Set<DueOperation> suspendedOperations) {
    List<String> lines = new ArrayList<>();
    String verb = dryRun ? " would run: " : " due: ";
    for (DueOperation operation : evaluation.decision().due()) {
      String name = OperationRunner.operationName(operation);
      if (suspendedOperations.contains(operation)) {
        lines.add(failures.heldLine(table.toString(), name));
      } else {
        lines.add(name + verb + operation.reason());
      }
    }
    for (HeldOperation held : evaluation.decision().held()) {
      lines.add(held.operation().commandName() + " held: " + held.reason());
    }
    String score =
        "health "
            + evaluation.report().score().score()
            + " (worst: "
            + evaluation.report().score().worst().name()
            + ")";
    if (lines.isEmpty()) {
      lines.add("nothing due, " + score);
    }
    String text = String.join(" | ", lines);
    boolean repeated =
        text.equals(lastLogged.put(table, text))
            && suspendedOperations.containsAll(evaluation.decision().due());
    if (!repeated) {
      for (String line : lines) {
        log.table(
            table.toString(), line.startsWith("nothing due") ? line : line + " [" + score + "]");
      }
    }
  }
}
