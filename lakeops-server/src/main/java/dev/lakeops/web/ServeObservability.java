package dev.lakeops.web;

import dev.lakeops.learn.CompactionAdvisor;
import dev.lakeops.learn.LearnedCompactions;
import dev.lakeops.learn.PlannerDefaults;
import dev.lakeops.learn.RunPlanStore;
import dev.lakeops.ledger.RunLedger;
import dev.lakeops.observe.CatalogTableInspector;
import dev.lakeops.observe.HealthHistory;
import dev.lakeops.observe.LakeMetrics;
import dev.lakeops.observe.LakeObserver;
import dev.lakeops.observe.LiveLakeState;
import dev.lakeops.observe.PolicyValues;
import dev.lakeops.observe.StoreSession;
import dev.lakeops.observe.StoredLakeView;
import dev.lakeops.policy.PolicyResolver;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Everything {@code lakeops serve} adds for watching and learning: the observer its daemon reports
 * to (metrics, live state, health history in the store), the learning planner's advisor, and, with
 * {@code --http}, the dashboard server.
 */
public final class ServeObservability implements AutoCloseable {
  private final StoreSession store;
  private final LakeObserver observer;
  private final CompactionAdvisor advisor;
  private final Optional<DashboardServer> server;

  private ServeObservability(
      StoreSession store,
      LakeObserver observer,
      CompactionAdvisor advisor,
      Optional<DashboardServer> server) {
    this.store = store;
    this.observer = observer;
    this.advisor = advisor;
    this.server = server;
  }

  /**
   * Opens the store at {@code storeConfiguration} and, when {@code http} is given, starts serving.
   *
   * @param working whether the daemon works: {@code /health} answers 200 while true
   */
  public static ServeObservability start(
      String storeConfiguration,
      Catalog catalog,
      String catalogName,
      PolicyResolver policies,
      RunLedger ledger,
      Optional<InetSocketAddress> http,
      BooleanSupplier working,
      Clock clock) {
    StoreSession store = StoreSession.open(storeConfiguration);
    try {
      LakeMetrics metrics = new LakeMetrics(policies.file().metricsTableSeries());
      LiveLakeState live = new LiveLakeState(clock);
      HealthHistory history = new HealthHistory(store, catalogName);
      RunPlanStore plans = new RunPlanStore(store, catalogName);
      LakeObserver observer = LakeObserver.all(List.of(live, metrics, history));
      CompactionAdvisor advisor = new LearnedCompactions(plans, PlannerDefaults.standard());
      Optional<DashboardServer> server =
          http.map(
              address ->
                  DashboardServer.start(
                      address,
                      new DashboardData(
                          new StoredLakeView(live, history, ledger, catalogName),
                          new CatalogTableInspector(
                              catalog,
                              table ->
                                  PolicyValues.of(
                                      policies.resolve(
                                          TableIdentifier.parse(
                                              ledgerName(table.name(), catalogName)),
                                          table.properties()))),
                          runId ->
                              Optional.ofNullable(plans.predictions(List.of(runId)).get(runId))
                                  .map(
                                      prediction ->
                                          new RunPredictions.Prediction(
                                              prediction.seconds(), prediction.peakMemoryBytes())),
                          clock),
                      metrics,
                      working));
      return new ServeObservability(store, observer, advisor, server);
    } catch (RuntimeException e) {
      store.close();
      throw e;
    }
  }

  private static String ledgerName(String tableName, String catalogName) {
    String prefix = catalogName + ".";
    return tableName.startsWith(prefix) ? tableName.substring(prefix.length()) : tableName;
  }

  public LakeObserver observer() {
    return observer;
  }

  public CompactionAdvisor advisor() {
    return advisor;
  }

  /** The dashboard's base URL, when serving. */
  public Optional<String> url() {
    return server.map(DashboardServer::url);
  }

  @Override
  public void close() {
    server.ifPresent(DashboardServer::close);
    store.close();
  }
}
