package dev.lakeops.observe;

import static java.util.Objects.requireNonNull;

import dev.lakeops.ledger.RunLedger;
import dev.lakeops.ledger.RunQuery;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The daemon's view for the dashboard: tables, queue and budget as the daemon last reported them,
 * health history from the store (the in-memory day when the store has none), and runs from the
 * ledger, so runs of every host (CLI, Spark, Trino, Flink) show too.
 */
public final class StoredLakeView implements LakeView {
  private final LiveLakeState live;
  private final HealthHistory history;
  private final RunLedger ledger;
  private final String catalog;

  public StoredLakeView(
      LiveLakeState live, HealthHistory history, RunLedger ledger, String catalog) {
    this.live = requireNonNull(live, "live is null");
    this.history = requireNonNull(history, "history is null");
    this.ledger = requireNonNull(ledger, "ledger is null");
    this.catalog = requireNonNull(catalog, "catalog is null");
  }

  @Override
  public List<TableSample> tables() {
    return live.tables();
  }

  @Override
  public List<TableSample> history(String table, Instant since) {
    List<TableSample> stored = history.samples(table, since);
    return stored.isEmpty() ? live.history(table, since) : stored;
  }

  @Override
  public List<RunSummary> runs(Optional<String> table, int limit) {
    RunQuery query = RunQuery.all().withCatalog(catalog).withLimit(limit);
    if (table.isPresent()) {
      query = query.withTable(table.get());
    }
    List<RunSummary> fromLedger = ledger.list(query).stream().map(RunSummaries::of).toList();
    return fromLedger.isEmpty() ? live.runs(table, limit) : fromLedger;
  }

  @Override
  public List<QueuedOperation> queue() {
    return live.queue();
  }

  @Override
  public BudgetUse budget() {
    return live.budget();
  }

  @Override
  public LakeMembers members() {
    return live.members();
  }
}
