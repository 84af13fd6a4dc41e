package dev.lakeops.spark.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.spark.LocalSpark;
import dev.lakeops.telemetry.store.TelemetryStoreFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The listener registered through {@code spark.sql.queryExecutionListeners} in a real local Spark
 * session records real queries over Iceberg tables into a SQLite file (and, registered on the
 * session, into PostgreSQL); each test asserts the exact table, columns, clauses and predicate
 * kinds.
 */
class QueryTelemetryListenerTest {
  private static final String POSTGRESQL_URL =
      System.getProperty(
          "telemetry.test.postgresql.url", "jdbc:postgresql://127.0.0.1:5432/test?user=postgres");
  private static final String ORDERS = "spark:cat.db.orders";
  private static final String CUSTOMERS = "spark:cat.db.customers";

  @TempDir static Path directory;
  private static SparkSession spark;
  private static RecordedTelemetry recorded;

  @BeforeAll
  static void startSpark() throws Exception {
    Path store = directory.resolve("telemetry.db");
    spark =
        LocalSpark.start(
            directory.resolve("warehouse"),
            Map.of(
                "spark.sql.queryExecutionListeners",
                LakeOpsQueryListener.class.getName(),
                TelemetrySettings.STORE,
                "sqlite:" + store,
                TelemetrySettings.FLUSH_INTERVAL,
                "100ms"));
    spark.sql("CREATE NAMESPACE IF NOT EXISTS cat.db");
    spark.sql(
        "CREATE TABLE cat.db.orders (order_id BIGINT, customer_id BIGINT, country STRING, amount DOUBLE,"
            + " note STRING, day DATE) USING iceberg PARTITIONED BY (country)");
    spark.sql(
        "CREATE TABLE cat.db.customers (id BIGINT, name STRING, segment STRING) USING iceberg");
    spark.sql(
        "INSERT INTO cat.db.orders SELECT id, id % 10, element_at(array('NL', 'DE'), cast(id % 2 AS INT) + 1),"
            + " id * 10.0, IF(id % 3 = 0, NULL, 'n'), date_add(DATE '2026-01-01', cast(id AS INT)) FROM range(40)");
    spark.sql(
        "INSERT INTO cat.db.customers SELECT id, concat('Anna', id), IF(id % 2 = 0, 'retail', 'online') FROM range(10)");
    // Create the store's tables up front, so that reading it never races the first write.
    TelemetryStoreFactory.open("sqlite:" + store).close();
    recorded = new RecordedTelemetry("jdbc:sqlite:" + store);
    flush();
    recorded.newEvents();
  }

  @AfterAll
  static void stopSpark() {
    if (spark != null) {
      spark.stop();
    }
    SharedTelemetryRecorders.closeAll();
  }

  @BeforeEach
  void forgetEarlierQueries() throws Exception {
    flush();
    recorded.newEvents();
  }

  @Test
  void recordsFiltersIncludingOnesIcebergTookOverInTheScan() throws Exception {
    // country is an identity partition column: Iceberg evaluates that filter itself and Spark
    // drops it from the plan; amount stays a Spark filter too. Spark's inferred IS NOT NULL is left
    // out.
    Map<String, Set<String>> events =
        record("SELECT order_id, amount FROM cat.db.orders WHERE amount > 100 AND country = 'NL'");

    assertThat(events)
        .containsOnlyKeys(ORDERS)
        .containsEntry(
            ORDERS,
            Set.of("amount FILTER RANGE", "country FILTER EQUALITY", "order_id PROJECTION"));
  }

  @Test
  void recordsTheRowsOfThePlannedFilesAsScanVolume() throws Exception {
    spark.sql("SELECT order_id FROM cat.db.orders WHERE country = 'DE'").collectAsList();
    flush();

    // 40 rows, half of them in partition DE: Iceberg plans only that partition's files.
    assertThat(recorded.rowsScanned()).containsOnly(Map.entry(ORDERS, 20L));
    assertThat(recorded.newEvents())
        .containsOnly(Map.entry(ORDERS, Set.of("country FILTER EQUALITY", "order_id PROJECTION")));
  }

  @Test
  void recordsJoinKeysGroupingKeysAndInListsPerTable() throws Exception {
    Map<String, Set<String>> events =
        record(
            "SELECT c.segment, sum(o.amount) FROM cat.db.orders o JOIN cat.db.customers c"
                + " ON o.customer_id = c.id WHERE c.segment IN ('retail', 'online') GROUP BY c.segment");

    assertThat(events)
        .containsOnlyKeys(ORDERS, CUSTOMERS)
        .containsEntry(ORDERS, Set.of("customer_id JOIN_KEY", "amount PROJECTION"))
        .containsEntry(
            CUSTOMERS, Set.of("id JOIN_KEY", "segment FILTER IN_LIST", "segment GROUP_BY"));
  }

  @Test
  void mapsAliasesThroughSubqueriesBackToTheTableColumn() throws Exception {
    Map<String, Set<String>> events =
        record(
            "SELECT k, count(*) FROM (SELECT customer_id AS k, amount AS a FROM cat.db.orders) t"
                + " WHERE a >= 50 GROUP BY k ORDER BY k");

    assertThat(events)
        .containsOnlyKeys(ORDERS)
        .containsEntry(
            ORDERS, Set.of("customer_id GROUP_BY", "customer_id ORDER_BY", "amount FILTER RANGE"));
  }

  @Test
  void recordsNullChecksPrefixLikesAndDateRanges() throws Exception {
    Map<String, Set<String>> orders =
        record(
            "SELECT order_id FROM cat.db.orders WHERE note IS NULL AND day BETWEEN DATE '2026-01-05' AND DATE '2026-01-20'");
    Map<String, Set<String>> customers =
        record("SELECT id FROM cat.db.customers WHERE name LIKE 'Anna1%'");
    Map<String, Set<String>> notNull =
        record("SELECT order_id FROM cat.db.orders WHERE note IS NOT NULL");

    assertThat(orders)
        .containsOnly(
            Map.entry(
                ORDERS, Set.of("note FILTER IS_NULL", "day FILTER RANGE", "order_id PROJECTION")));
    assertThat(customers)
        .containsOnly(Map.entry(CUSTOMERS, Set.of("name FILTER LIKE_PREFIX", "id PROJECTION")));
    assertThat(notNull)
        .containsOnly(Map.entry(ORDERS, Set.of("note FILTER IS_NULL", "order_id PROJECTION")));
  }

  @Test
  void recordsNothingForNonIcebergAndMetadataTables() throws Exception {
    assertThat(record("SELECT id FROM range(10) WHERE id > 5")).isEmpty();
    assertThat(record("SELECT file_path FROM cat.db.orders.files WHERE record_count > 1"))
        .isEmpty();
  }

  @Test
  void compactAutoReadsWhatTheListenerRecorded() throws Exception {
    spark.sql(
        "CREATE TABLE cat.db.visits (visit_id BIGINT, user_id BIGINT, page STRING) USING iceberg");
    for (int insert = 0; insert < 3; insert++) {
      spark.sql(
          "INSERT INTO cat.db.visits SELECT id, id % 97, concat('/p', id % 5) FROM range("
              + insert * 100
              + ", "
              + (insert + 1) * 100
              + ", 1, 1)");
    }
    for (int query = 0; query < 25; query++) {
      spark.sql("SELECT page FROM cat.db.visits WHERE user_id = " + query).collectAsList();
    }
    flush();
    LocalSpark.Fingerprint before = LocalSpark.fingerprint(spark, "cat.db.visits");

    Row result =
        spark
            .sql(
                "CALL lakeops.compact(table => 'cat.db.visits', strategy => 'auto', options => map('min-input-files', '2'))")
            .first();

    // 25 filter queries that all agree make a confident advice: at 95 % user_id carries 87 % of
    // them.
    assertThat(result.getString(result.fieldIndex("strategy"))).isEqualTo("auto->sort");
    assertThat(result.getString(result.fieldIndex("strategy_reason")))
        .startsWith("sort by user_id ASC: the advice is confident (confidence 0.867)");
    assertThat(LocalSpark.dataFileCount(spark, "cat.db.visits")).isEqualTo(1);
    assertThat(LocalSpark.fingerprint(spark, "cat.db.visits")).isEqualTo(before);
  }

  @Test
  void disabledListenerOpensNoStore() throws Exception {
    Path store = directory.resolve("disabled.db");
    LakeOpsQueryListener disabled =
        new LakeOpsQueryListener(
            TelemetrySettings.parse(
                Map.of(
                    TelemetrySettings.ENABLED,
                    "false",
                    TelemetrySettings.STORE,
                    "sqlite:" + store)));
    spark.listenerManager().register(disabled);
    try {
      Map<String, Set<String>> events =
          record("SELECT order_id FROM cat.db.orders WHERE amount < 10");

      assertThat(events).containsOnlyKeys(ORDERS);
      assertThat(Files.exists(store)).isFalse();
    } finally {
      spark.listenerManager().unregister(disabled);
    }
  }

  @Test
  void recordsIntoPostgresql() throws Exception {
    String schema = "lakeops_spark_telemetry_" + UUID.randomUUID().toString().replace("-", "");
    execute(POSTGRESQL_URL, "CREATE SCHEMA " + schema);
    String url =
        POSTGRESQL_URL + (POSTGRESQL_URL.contains("?") ? "&" : "?") + "currentSchema=" + schema;
    LakeOpsQueryListener postgresql =
        new LakeOpsQueryListener(TelemetrySettings.parse(Map.of(TelemetrySettings.STORE, url)));
    spark.listenerManager().register(postgresql);
    try {
      record("SELECT customer_id FROM cat.db.orders WHERE order_id = 7");

      assertThat(new RecordedTelemetry(url).newEvents())
          .containsOnly(
              Map.entry(ORDERS, Set.of("order_id FILTER EQUALITY", "customer_id PROJECTION")));
    } finally {
      spark.listenerManager().unregister(postgresql);
      SharedTelemetryRecorders.closeAll();
      execute(POSTGRESQL_URL, "DROP SCHEMA " + schema + " CASCADE");
    }
  }

  /**
   * Runs {@code sql}, waits for Spark's listeners, writes what the recorders hold, reads it back.
   */
  private static Map<String, Set<String>> record(String sql) throws Exception {
    spark.sql(sql).collectAsList();
    flush();
    return recorded.newEvents();
  }

  private static void flush() throws Exception {
    spark.sparkContext().listenerBus().waitUntilEmpty(30_000);
    SharedTelemetryRecorders.closeAll();
  }

  private static void execute(String url, String sql) throws Exception {
    try (Connection connection = DriverManager.getConnection(url);
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }
}
