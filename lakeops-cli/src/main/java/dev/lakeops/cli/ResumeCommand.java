package dev.lakeops.cli;

import dev.lakeops.ledger.JdbcSuspensionTable;
import dev.lakeops.ledger.RunLedger;
import dev.lakeops.ledger.SuspensionRow;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

@Command(
    name = "resume",
    description =
        "Resume the operations serve suspended on a table after they failed in a row: clears their"
            + " failures in the store; serve runs them again at its next look at the table.",
    mixinStandardHelpOptions = true)
final class ResumeCommand implements Callable<Integer> {
  @Mixin CatalogOptions catalog;

  @Mixin StoreOptions store;

  @Parameters(index = "0", paramLabel = "TABLE", description = "The table, namespace.table.")
  String table;

  @Override
  public Integer call() {
    String catalogName = catalog.settings().name();
    String name =
        table.startsWith(catalogName + ".") ? table.substring(catalogName.length() + 1) : table;
    List<SuspensionRow> cleared;
    try (RunLedger ledger = store.openForReading(catalog);
        JdbcSuspensionTable suspensions =
            JdbcSuspensionTable.open(
                ledger
                    .storeLocation()
                    .orElseThrow(() -> new IllegalArgumentException("the store keeps no state")))) {
      cleared = suspensions.clearTable(catalogName, name);
    }
    List<SuspensionRow> suspended = cleared.stream().filter(SuspensionRow::suspended).toList();
    if (suspended.isEmpty()) {
      System.out.println(
          name
              + ": nothing suspended"
              + (cleared.isEmpty()
                  ? ""
                  : " (failure counts cleared: " + operations(cleared) + ")"));
      return 0;
    }
    for (SuspensionRow row : suspended) {
      System.out.println(
          name
              + ": "
              + row.operation()
              + " resumed (suspended after "
              + row.failures()
              + " failures in a row; last: "
              + row.lastError()
              + ")");
    }
    return 0;
  }

  private static String operations(List<SuspensionRow> rows) {
    return String.join(", ", rows.stream().map(SuspensionRow::operation).toList());
  }
}
