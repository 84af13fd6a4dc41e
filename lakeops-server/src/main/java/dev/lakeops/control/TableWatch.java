package dev.lakeops.control;

import static java.util.Objects.requireNonNull;

import dev.lakeops.health.ManifestReads;
import dev.lakeops.health.TableHealthReport;
import dev.lakeops.health.TableHealthTracker;
import dev.lakeops.trigger.MaintenanceHistory;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * What the daemon keeps about one table between evaluations: its loaded table and incremental
 * health tracker, the last report, the evaluation delay, when to look again, and its history. Owned
 * by the daemon's scheduling thread; while the table is evaluated ({@link EvaluationPool}), its
 * table and tracker belong to the evaluating worker.
 */
final class TableWatch {
  final TableIdentifier identifier;
  final TableHealthTracker tracker;
  Table table;
  Optional<TableHealthReport> lastReport = Optional.empty();
  Duration delay = Duration.ZERO;
  Instant nextEvaluation;
  MaintenanceHistory history;
  boolean evaluatedOnce;

  TableWatch(
      TableIdentifier identifier,
      MaintenanceHistory history,
      Instant now,
      Clock clock,
      ManifestReads manifestReads) {
    this.identifier = requireNonNull(identifier, "identifier is null");
    this.history = requireNonNull(history, "history is null");
    this.nextEvaluation = requireNonNull(now, "now is null");
    this.tracker = new TableHealthTracker(clock, manifestReads);
  }
}
