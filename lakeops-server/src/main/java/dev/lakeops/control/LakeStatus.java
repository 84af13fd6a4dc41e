package dev.lakeops.control;

import static java.util.Objects.requireNonNull;

import dev.lakeops.health.TableHealthTracker;
import dev.lakeops.ledger.JdbcMemberTable;
import dev.lakeops.ledger.JdbcSuspensionTable;
import dev.lakeops.ledger.MemberRow;
import dev.lakeops.ledger.RunLedger;
import dev.lakeops.ledger.RunQuery;
import dev.lakeops.ledger.RunRecord;
import dev.lakeops.ledger.SuspensionRow;
import dev.lakeops.policy.PolicyResolver;
import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * {@code lakeops status}: every table's health, last run and what the daemon would do next, and
 * why.
 */
public final class LakeStatus {
  private final Catalog catalog;
  private final String catalogName;
  private final PolicyResolver policies;
  private final RunLedger ledger;
  private final Clock clock;

  public LakeStatus(
      Catalog catalog, String catalogName, PolicyResolver policies, RunLedger ledger, Clock clock) {
    this.catalog = requireNonNull(catalog, "catalog is null");
    this.catalogName = requireNonNull(catalogName, "catalogName is null");
    this.policies = requireNonNull(policies, "policies is null");
    this.ledger = requireNonNull(ledger, "ledger is null");
    this.clock = requireNonNull(clock, "clock is null");
  }

  public List<TableStatus> collect() {
    DaemonLog quiet = new DaemonLog(new PrintStream(OutputStream.nullOutputStream()), clock);
    Map<String, String> owners = Map.of();
    List<SuspensionRow> failing = List.of();
    if (ledger.storeLocation().isPresent()) {
      try (JdbcMemberTable members = JdbcMemberTable.open(ledger.storeLocation().get());
          JdbcSuspensionTable suspensions =
              JdbcSuspensionTable.open(ledger.storeLocation().get())) {
        owners = members.owners(catalogName);
        failing = suspensions.list(catalogName);
      }
    }
    List<TableStatus> statuses = new ArrayList<>();
    for (TableIdentifier identifier : new LakeTables(catalog, quiet).list()) {
      String name = identifier.toString();
      statuses.add(
          status(
              identifier,
              Optional.ofNullable(owners.get(name)),
              failing.stream().filter(row -> row.tableName().equals(name)).toList()));
    }
    return statuses;
  }

  /** The serve processes registered in the store for this catalog, alive or not, oldest first. */
  public List<MemberRow> members() {
    if (ledger.storeLocation().isEmpty()) {
      return List.of();
    }
    try (JdbcMemberTable members = JdbcMemberTable.open(ledger.storeLocation().get())) {
      return members.members(catalogName);
    }
  }

  private TableStatus status(
      TableIdentifier identifier, Optional<String> owner, List<SuspensionRow> failing) {
    String name = identifier.toString();
    List<RunRecord> runs =
        ledger.list(
            RunQuery.all()
                .withCatalog(catalogName)
                .withTable(name)
                .withLimit(LedgerHistory.ROWS_PER_TABLE));
    Optional<RunRecord> lastRun = runs.stream().findFirst();
    try {
      Table table = catalog.loadTable(identifier);
      TableEvaluation evaluation =
          TableEvaluation.of(
              identifier,
              table,
              new TableHealthTracker(clock),
              policies,
              LedgerHistory.of(runs),
              clock.instant());
      return new TableStatus(
          name,
          Optional.of(evaluation.report().score()),
          lastRun,
          evaluation.decision().due(),
          evaluation.decision().held(),
          Optional.empty(),
          owner,
          failing);
    } catch (RuntimeException e) {
      return new TableStatus(
          name,
          Optional.empty(),
          lastRun,
          List.of(),
          List.of(),
          Optional.of("not a readable Iceberg table: " + DaemonLog.oneLine(e)),
          owner,
          failing);
    }
  }
}
