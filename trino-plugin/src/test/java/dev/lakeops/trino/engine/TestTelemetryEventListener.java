package dev.lakeops.trino.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.trino.listener.LakeOpsEventListener;
import dev.lakeops.trino.listener.LakeOpsEventListenerFactory;
import io.trino.spi.eventlistener.EventListener;
import io.trino.spi.eventlistener.QueryCompletedEvent;
import io.trino.testing.StandaloneQueryRunner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Real queries through a real engine; what the listener wrote is read back from the SQLite store.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestTelemetryEventListener {
  private Path directory;
  private Path store;
  private LakeOpsEventListener listener;
  private final Map<String, String> plans = new ConcurrentHashMap<>();
  private final Map<String, CompletableFuture<Void>> handedOver = new ConcurrentHashMap<>();
  private StandaloneQueryRunner runner;

  @BeforeAll
  void startEngine() throws Exception {
    directory = Files.createTempDirectory("lakeops-trino-telemetry");
    store = directory.resolve("telemetry.db");
    listener =
        (LakeOpsEventListener)
            new LakeOpsEventListenerFactory()
                .create(Map.of("lakeops.telemetry.store", "sqlite:" + store), null);
    EventListener handOver =
        new EventListener() {
          @Override
          public void queryCompleted(QueryCompletedEvent event) {
            String queryId = event.getMetadata().getQueryId();
            event.getMetadata().getJsonPlan().ifPresent(plan -> plans.put(queryId, plan));
            listener.queryCompleted(event);
            handedOver(queryId).complete(null);
          }

          @Override
          public void shutdown() {
            listener.shutdown();
          }
        };
    runner = LakeOpsQueryRunner.create(directory, List.of(handOver));
    runner.execute(
        "CREATE TABLE orders (id BIGINT, customer_id BIGINT, status VARCHAR, amount DOUBLE, day DATE) "
            + "WITH (partitioning = ARRAY['day'])");
    runner.execute("CREATE TABLE customers (id BIGINT, country VARCHAR, name VARCHAR)");
    runner.execute(
        "INSERT INTO orders VALUES (1, 10, 'open', 5.0, DATE '2026-01-01'), (2, 11, 'done', 7.5, DATE '2026-01-02'), "
            + "(3, 10, 'open', 12.0, DATE '2026-01-02')");
    runner.execute("INSERT INTO customers VALUES (10, 'NL', 'a'), (11, 'DE', 'b')");
  }

  @AfterAll
  void stopEngine() throws Exception {
    if (runner != null) {
      runner.close();
    }
    try (Stream<Path> paths = Files.walk(directory)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    }
  }

  @Test
  void recordsFilterColumnsWithTheirPredicateKind() throws Exception {
    String queryId = run("SELECT id, amount FROM orders WHERE status = 'open' AND amount > 6");

    assertThat(columnUses(queryId, "orders"))
        .as("plan %s", plans.get(queryId))
        .contains("status FILTER EQUALITY", "amount FILTER RANGE", "id PROJECTION")
        .doesNotContain("amount PROJECTION");
  }

  @Test
  void recordsPartitionFiltersPushedIntoTheScan() throws Exception {
    String queryId = run("SELECT count(*) FROM orders WHERE day = DATE '2026-01-02'");

    assertThat(columnUses(queryId, "orders"))
        .as("plan %s", plans.get(queryId))
        .contains("day FILTER EQUALITY");
  }

  @Test
  void recordsJoinKeysOnBothTablesAndGroupingKeys() throws Exception {
    String queryId =
        run(
            "SELECT c.country, sum(o.amount) FROM orders o JOIN customers c ON o.customer_id = c.id GROUP BY c.country");

    assertThat(columnUses(queryId, "orders"))
        .as("plan %s", plans.get(queryId))
        .contains("customer_id JOIN_KEY", "amount PROJECTION");
    assertThat(columnUses(queryId, "customers"))
        .as("plan %s", plans.get(queryId))
        .contains("id JOIN_KEY", "country GROUP_BY");
  }

  @Test
  void recordsGroupingKeysOfOneTable() throws Exception {
    String queryId = run("SELECT status, count(*) FROM orders GROUP BY status");

    assertThat(columnUses(queryId, "orders"))
        .as("plan %s", plans.get(queryId))
        .containsExactly("status GROUP_BY");
  }

  @Test
  void attributesEachColumnToItsOwnClauseInOneQuery() throws Exception {
    String queryId =
        run(
            """
            SELECT c.country, count(*), sum(o.amount)
            FROM orders o JOIN customers c ON o.customer_id = c.id
            WHERE o.status = 'open' AND c.name LIKE 'a%'
            GROUP BY c.country""");

    assertThat(columnUses(queryId, "orders"))
        .as("plan %s", plans.get(queryId))
        .containsExactly("amount PROJECTION", "customer_id JOIN_KEY", "status FILTER EQUALITY");
    assertThat(columnUses(queryId, "customers"))
        .as("plan %s", plans.get(queryId))
        .containsExactly("country GROUP_BY", "id JOIN_KEY", "name FILTER LIKE_PREFIX");
  }

  @Test
  void recordsInListsAndNullChecks() throws Exception {
    String queryId =
        run(
            "SELECT id FROM orders WHERE status IN ('open', 'late', 'done') AND customer_id IS NULL");

    assertThat(columnUses(queryId, "orders"))
        .as("plan %s", plans.get(queryId))
        .containsExactly("customer_id FILTER IS_NULL", "id PROJECTION", "status FILTER IN_LIST");
  }

  private String run(String sql) {
    return runner.executeWithPlan(runner.getDefaultSession(), sql).queryId().toString();
  }

  private CompletableFuture<Void> handedOver(String queryId) {
    return handedOver.computeIfAbsent(queryId, id -> new CompletableFuture<>());
  }

  /**
   * "column CLAUSE [KIND]" per reference the store holds for the query and table, once the engine
   * handed the query to the listener and the listener wrote what it extracted.
   */
  private List<String> columnUses(String queryId, String table) throws Exception {
    handedOver(queryId).get(30, TimeUnit.SECONDS);
    assertThat(listener.flush(Duration.ofSeconds(30))).as("telemetry written").isTrue();
    return readColumnUses(queryId, table);
  }

  private List<String> readColumnUses(String queryId, String table) throws SQLException {
    if (!Files.exists(store)) {
      return List.of();
    }
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + store);
        PreparedStatement statement =
            connection.prepareStatement(
                "SELECT u.column_name, u.clause, u.predicate_kind FROM telemetry_column_use u "
                    + "JOIN telemetry_event e ON e.event_id = u.event_id "
                    + "WHERE e.query_id = ? AND e.table_name = ? AND e.engine = 'trino' AND e.catalog_name = 'iceberg' "
                    + "AND e.namespace_name = 'db' ORDER BY u.column_name, u.clause")) {
      statement.setString(1, queryId);
      statement.setString(2, table);
      List<String> uses = new ArrayList<>();
      try (ResultSet rows = statement.executeQuery()) {
        while (rows.next()) {
          String kind = rows.getString(3);
          uses.add(rows.getString(1) + " " + rows.getString(2) + (kind == null ? "" : " " + kind));
        }
      }
      return uses;
    } catch (SQLException e) {
      if (e.getMessage().contains("no such table")) {
        return List.of();
      }
      throw e;
    }
  }
}
