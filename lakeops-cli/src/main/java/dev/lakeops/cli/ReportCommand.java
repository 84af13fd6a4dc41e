package dev.lakeops.cli;

import dev.lakeops.health.TableHealthTracker;
import dev.lakeops.ledger.LedgerWarnings;
import dev.lakeops.ledger.RunLedger;
import dev.lakeops.observe.CatalogTableInspector;
import dev.lakeops.observe.HealthHistory;
import dev.lakeops.observe.LakeView;
import dev.lakeops.observe.LiveLakeState;
import dev.lakeops.observe.PolicyValues;
import dev.lakeops.observe.StoreSession;
import dev.lakeops.observe.StoredLakeView;
import dev.lakeops.observe.TableSamples;
import dev.lakeops.policy.EffectivePolicy;
import dev.lakeops.policy.PolicyFile;
import dev.lakeops.policy.PolicyResolver;
import dev.lakeops.runs.LedgerTableNames;
import dev.lakeops.web.ApiDocuments;
import dev.lakeops.web.DashboardData;
import dev.lakeops.web.RunPredictions;
import dev.lakeops.web.TableReport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
    name = "report",
    description =
        "Write a table's dashboard page (health over time, file sizes, bytes rewritten, policy, runs) as one"
            + " standalone HTML file.",
    mixinStandardHelpOptions = true)
final class ReportCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "<namespace.table>")
  String table;

  @Mixin CatalogOptions catalog;

  @Mixin StoreOptions store;

  @Option(
      names = "--policy",
      paramLabel = "FILE",
      description = "The daemon's policy file, for the effective policy.")
  Path policy;

  @Option(
      names = "--html",
      paramLabel = "FILE",
      required = true,
      description = "Where to write the page.")
  Path html;

  @Override
  public Integer call() {
    Catalog connected = catalog.connect();
    String catalogName = catalog.settings().name();
    Table loaded = new dev.lakeops.catalog.TableResolver(connected).load(table);
    String name = LedgerTableNames.of(loaded, catalogName);
    PolicyResolver resolver =
        new PolicyResolver(policy == null ? PolicyFile.empty() : PolicyFile.load(policy));
    EffectivePolicy effective = resolver.resolve(TableIdentifier.parse(name), loaded.properties());
    Clock clock = Clock.systemUTC();
    LiveLakeState live = new LiveLakeState(clock);
    live.tableEvaluated(
        TableSamples.of(
            name,
            new TableHealthTracker(clock).evaluate(loaded, effective.healthCriteria()),
            clock.instant()));
    CatalogTableInspector inspector =
        new CatalogTableInspector(connected, ignored -> PolicyValues.of(effective));
    try (Stored stored = Stored.open(store, catalog)) {
      LakeView view =
          stored.session.isPresent()
              ? new StoredLakeView(
                  live,
                  new HealthHistory(stored.session.get(), catalogName),
                  stored.ledger,
                  catalogName)
              : live;
      ApiDocuments.TableDetail detail =
          new DashboardData(view, inspector, RunPredictions.NONE, clock).table(name).orElseThrow();
      Files.writeString(html, TableReport.html(detail), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot write " + html + ": " + e.getMessage() + " (check --html)", e);
    }
    System.out.println("Wrote the report of " + name + " to " + html);
    return 0;
  }

  /** The store's history and ledger when a store is there; nothing (with a warning) when not. */
  private record Stored(Optional<StoreSession> session, RunLedger ledger) implements AutoCloseable {
    static Stored open(StoreOptions store, CatalogOptions catalog) {
      if (!store.enabled()) {
        return new Stored(Optional.empty(), RunLedger.disabled());
      }
      try {
        StoreSession session = StoreSession.open(store.configuration(catalog));
        return new Stored(Optional.of(session), store.openForReading(catalog));
      } catch (RuntimeException e) {
        System.err.println(
            "lakeops: warning: "
                + LedgerWarnings.oneLine(e)
                + "; the report shows no history or runs");
        return new Stored(Optional.empty(), RunLedger.disabled());
      }
    }

    @Override
    public void close() {
      ledger.close();
      session.ifPresent(StoreSession::close);
    }
  }
}
