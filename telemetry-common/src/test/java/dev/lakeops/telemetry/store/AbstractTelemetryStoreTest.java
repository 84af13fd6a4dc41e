package dev.lakeops.telemetry.store;

import static dev.lakeops.telemetry.event.TelemetryEvents.CUSTOMERS;
import static dev.lakeops.telemetry.event.TelemetryEvents.NOW;
import static dev.lakeops.telemetry.event.TelemetryEvents.ORDERS;
import static dev.lakeops.telemetry.event.TelemetryEvents.event;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.within;

import dev.lakeops.telemetry.event.Clause;
import dev.lakeops.telemetry.event.ColumnReference;
import dev.lakeops.telemetry.event.PredicateKind;
import dev.lakeops.telemetry.event.ScanVolume;
import dev.lakeops.telemetry.event.TableIdentity;
import dev.lakeops.telemetry.event.TableName;
import dev.lakeops.telemetry.event.TelemetryEvent;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The behaviour every store shares, run against each real database. */
abstract class AbstractTelemetryStoreTest {
  private static final Duration HALF_LIFE = Duration.ofDays(7);
  private static final UsageQuery QUERY = UsageQuery.asOf(NOW, HALF_LIFE);

  private JdbcTelemetryStore store;

  /** A fresh, empty location for one test. */
  abstract StoreLocation newLocation() throws Exception;

  @BeforeEach
  void openStore() throws Exception {
    store = JdbcTelemetryStore.open(newLocation());
  }

  @AfterEach
  void closeStore() {
    // null when newLocation() skipped the test
    if (store != null) {
      store.close();
    }
  }

  @Test
  void createsSchemaAtLatestVersion() {
    assertThat(store.schemaVersion()).isEqualTo(SchemaMigrator.LATEST_VERSION).isEqualTo(8);
    assertThat(store.countEvents()).isZero();
  }

  @Test
  void reopeningKeepsEventsAndDoesNotMigrateTwice() {
    store.append(List.of(TelemetryEventsForStore.userIdFilter(NOW)));
    store.close();

    store = JdbcTelemetryStore.open(store.location());

    assertThat(store.schemaVersion()).isEqualTo(SchemaMigrator.LATEST_VERSION);
    assertThat(store.countEvents()).isEqualTo(1);
  }

  @Test
  void refusesSchemaNewerThanItKnows() throws Exception {
    try (Connection connection = DriverManager.getConnection(store.location().jdbcUrl());
        Statement statement = connection.createStatement()) {
      statement.executeUpdate(
          "INSERT INTO telemetry_schema_version (version, description, applied_at_millis)"
              + " VALUES (99, 'from the future', 0)");
    }

    assertThatThrownBy(() -> JdbcTelemetryStore.open(store.location()))
        .isInstanceOf(TelemetryStoreException.class)
        .hasMessage(
            "Telemetry store schema is at version 99 but this LakeOps knows versions up to "
                + SchemaMigrator.LATEST_VERSION
                + ":"
                + " upgrade LakeOps before writing to this store");
  }

  @Test
  void aggregatesWeightedUsagePerColumnAndClause() {
    store.append(
        List.of(
            event(
                "trino",
                ORDERS,
                NOW,
                ScanVolume.ofBytes(1L << 20),
                ColumnReference.filter("user_id", PredicateKind.EQUALITY),
                ColumnReference.of("amount", Clause.PROJECTION)),
            event(
                "spark",
                ORDERS,
                NOW.minus(HALF_LIFE),
                ScanVolume.unknown(),
                ColumnReference.of("user_id", Clause.FILTER),
                ColumnReference.of("user_id", Clause.GROUP_BY)),
            event(
                "spark",
                CUSTOMERS,
                NOW,
                ScanVolume.unknown(),
                ColumnReference.filter("country", PredicateKind.IN_LIST))));

    TableUsage usage = store.usage(ORDERS, QUERY);

    assertThat(usage.eventCount()).isEqualTo(2);
    assertThat(usage.filterEventCount()).isEqualTo(2);
    assertThat(usage.distinctEngines()).isEqualTo(2);
    assertThat(usage.columns())
        .extracting(ColumnClauseUsage::column, ColumnClauseUsage::clause)
        .containsExactly(
            tuple("user_id", Clause.FILTER),
            tuple("amount", Clause.PROJECTION),
            tuple("user_id", Clause.GROUP_BY));
    ColumnClauseUsage userIdFilter = usage.find("user_id", Clause.FILTER).orElseThrow();
    assertThat(userIdFilter.referenceCount()).isEqualTo(2);
    assertThat(userIdFilter.distinctEngines()).isEqualTo(2);
    assertThat(userIdFilter.weightedCount()).isCloseTo(2.5, within(1e-9));
    assertThat(userIdFilter.weightedCountOf(PredicateKind.EQUALITY)).isCloseTo(2.0, within(1e-9));
    assertThat(userIdFilter.weightedCountOfUnknownPredicateKind()).isCloseTo(0.5, within(1e-9));
    assertThat(store.usage(QUERY)).extracting(TableUsage::table).containsExactly(CUSTOMERS, ORDERS);
  }

  @Test
  void ignoresEventsOutsideTheWindow() {
    store.append(
        List.of(
            TelemetryEventsForStore.userIdFilter(NOW.minus(Duration.ofDays(71))),
            TelemetryEventsForStore.userIdFilter(NOW.plusSeconds(1))));

    assertThat(store.usage(ORDERS, QUERY)).isEqualTo(TableUsage.empty(ORDERS));
    assertThat(store.usage(TableName.of("lake", "none", "missing"), QUERY).columns()).isEmpty();
  }

  @Test
  void retentionDeletesOnlyOldEvents() {
    store.append(
        List.of(
            TelemetryEventsForStore.userIdFilter(NOW.minus(Duration.ofDays(40))),
            TelemetryEventsForStore.userIdFilter(NOW.minus(Duration.ofDays(31))),
            TelemetryEventsForStore.userIdFilter(NOW.minus(Duration.ofDays(30))),
            TelemetryEventsForStore.userIdFilter(NOW)));

    long deleted = store.deleteEventsOlderThan(NOW.minus(Duration.ofDays(30)));

    assertThat(deleted).isEqualTo(2);
    assertThat(store.countEvents()).isEqualTo(2);
    assertThat(
            store
                .usage(ORDERS, new UsageQuery(NOW, HALF_LIFE, Duration.ofDays(365)))
                .find("user_id", Clause.FILTER)
                .orElseThrow()
                .referenceCount())
        .isEqualTo(2);
    assertThat(store.deleteEventsOlderThan(NOW.minus(Duration.ofDays(30)))).isZero();
  }

  @Test
  void concurrentWritersStoreEveryEvent() throws Exception {
    int threads = 6;
    int batchesPerThread = 20;
    int eventsPerBatch = 15;
    ExecutorService executor = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> writers = new ArrayList<>();
      for (int thread = 0; thread < threads; thread++) {
        writers.add(
            executor.submit(
                () -> {
                  for (int batch = 0; batch < batchesPerThread; batch++) {
                    List<TelemetryEvent> events = new ArrayList<>();
                    for (int index = 0; index < eventsPerBatch; index++) {
                      events.add(TelemetryEventsForStore.userIdFilter(NOW));
                    }
                    store.append(events);
                  }
                }));
      }
      for (Future<?> writer : writers) {
        writer.get(2, TimeUnit.MINUTES);
      }
    } finally {
      executor.shutdownNow();
    }

    long expected = (long) threads * batchesPerThread * eventsPerBatch;
    assertThat(store.countEvents()).isEqualTo(expected);
    TableUsage usage = store.usage(ORDERS, QUERY);
    assertThat(usage.eventCount()).isEqualTo(expected);
    assertThat(usage.find("user_id", Clause.FILTER).orElseThrow().referenceCount())
        .isEqualTo(expected);
  }

  @Test
  void matchesTablesByUuidThenLocationThenNamespaceAndNameInAnyCatalog() {
    String uuid = "6f1c3a52-0b7e-4c59-9d55-1f0e8a4b2c11";
    TableIdentity identity = TableIdentity.of(uuid, "file:///warehouse/sales/orders/");
    TableName sparkName = TableName.of("cat", "sales", "orders");
    store.append(
        List.of(
            identified(
                sparkName,
                TableIdentity.of(uuid.toUpperCase(java.util.Locale.ROOT), null),
                "user_id"),
            identified(
                TableName.of("other", "x", "y"),
                TableIdentity.of(null, "/warehouse/sales/orders"),
                "ts"),
            identified(TableName.of("lake", "SALES", "Orders"), TableIdentity.unknown(), "country"),
            identified(
                ORDERS,
                TableIdentity.of("00000000-0000-0000-0000-000000000001", null),
                "dropped_table"),
            identified(CUSTOMERS, TableIdentity.unknown(), "segment")));

    TableUsage matched =
        store.usage(new TableMatch(TableName.of("lakeops", "sales", "orders"), identity), QUERY);
    TableUsage byName =
        store.usage(TableMatch.byName(TableName.of("lakeops", "sales", "orders")), QUERY);

    assertThat(matched.table()).isEqualTo(TableName.of("lakeops", "sales", "orders"));
    assertThat(matched.eventCount()).isEqualTo(3);
    assertThat(matched.forClause(Clause.FILTER))
        .extracting(ColumnClauseUsage::column)
        .containsExactlyInAnyOrder("user_id", "ts", "country");
    assertThat(matched.recordedAs())
        .containsExactly(
            sparkName, TableName.of("lake", "SALES", "Orders"), TableName.of("other", "x", "y"));
    assertThat(byName.forClause(Clause.FILTER))
        .extracting(ColumnClauseUsage::column)
        .containsExactlyInAnyOrder("user_id", "country", "dropped_table");
    assertThat(store.tableNames(QUERY))
        .containsExactly(
            sparkName,
            TableName.of("lake", "SALES", "Orders"),
            CUSTOMERS,
            ORDERS,
            TableName.of("other", "x", "y"));
  }

  @Test
  void groupsFilteredQueriesIntoClasses() {
    List<TelemetryEvent> events = new ArrayList<>();
    for (int query = 0; query < 3; query++) {
      events.add(
          event(
              ORDERS,
              NOW,
              ScanVolume.unknown(),
              ColumnReference.filter("user_id", PredicateKind.EQUALITY),
              ColumnReference.filter("ts", PredicateKind.RANGE),
              ColumnReference.of("amount", Clause.PROJECTION)));
    }
    events.add(
        event(
            ORDERS, NOW, ScanVolume.unknown(), ColumnReference.filter("ts", PredicateKind.RANGE)));
    events.add(
        event(ORDERS, NOW, ScanVolume.unknown(), ColumnReference.of("amount", Clause.PROJECTION)));
    store.append(events);

    List<QueryClassUsage> classes = store.usage(TableMatch.byName(ORDERS), QUERY).queryClasses();

    assertThat(classes)
        .extracting(QueryClassUsage::description, QueryClassUsage::eventCount)
        .containsExactly(tuple("ts RANGE + user_id EQUALITY", 3L), tuple("ts RANGE", 1L));
    assertThat(classes.get(0).weightedCount()).isCloseTo(3.0, within(1e-9));
  }

  @Test
  void migratesAVersionOneStoreKeepingItsEvents() throws Exception {
    store.append(List.of(TelemetryEventsForStore.userIdFilter(NOW)));
    try (Connection connection = DriverManager.getConnection(store.location().jdbcUrl());
        Statement statement = connection.createStatement()) {
      // back to the schema of version 1, as an older LakeOps left it
      statement.execute("DROP TABLE lakeops_run");
      statement.execute("DROP TABLE lakeops_health_sample");
      statement.execute("DROP TABLE lakeops_run_plan");
      statement.execute("DROP TABLE lakeops_member");
      statement.execute("DROP TABLE lakeops_table_owner");
      statement.execute("DROP TABLE lakeops_suspension");
      statement.execute("DROP INDEX telemetry_event_by_uuid_and_time");
      statement.execute("DROP INDEX telemetry_event_by_namespace_table_and_time");
      statement.execute("ALTER TABLE telemetry_event DROP COLUMN table_uuid");
      statement.execute("ALTER TABLE telemetry_event DROP COLUMN table_location");
      statement.execute("DELETE FROM telemetry_schema_version WHERE version > 1");
    }
    store.close();

    store = JdbcTelemetryStore.open(store.location());
    store.append(
        List.of(
            identified(
                ORDERS, TableIdentity.of("6f1c3a52-0b7e-4c59-9d55-1f0e8a4b2c11", null), "ts")));

    assertThat(store.schemaVersion()).isEqualTo(SchemaMigrator.LATEST_VERSION);
    TableUsage usage =
        store.usage(
            new TableMatch(ORDERS, TableIdentity.of("6f1c3a52-0b7e-4c59-9d55-1f0e8a4b2c11", null)),
            QUERY);
    assertThat(usage.forClause(Clause.FILTER))
        .extracting(ColumnClauseUsage::column)
        .containsExactlyInAnyOrder("user_id", "ts");
  }

  private static TelemetryEvent identified(
      TableName table, TableIdentity identity, String filtered) {
    return new TelemetryEvent(
        "spark",
        table,
        "query-" + java.util.UUID.randomUUID(),
        NOW,
        List.of(ColumnReference.filter(filtered, PredicateKind.EQUALITY)),
        ScanVolume.unknown(),
        identity);
  }

  @Test
  void refusesCallsAfterCloseAndClosesTwice() {
    store.close();
    store.close();

    assertThatThrownBy(() -> store.countEvents())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Telemetry store " + store.location() + " is closed");
  }

  /** Events used by the store tests. */
  static final class TelemetryEventsForStore {
    private TelemetryEventsForStore() {}

    static TelemetryEvent userIdFilter(Instant occurredAt) {
      return event(
          ORDERS,
          occurredAt,
          ScanVolume.unknown(),
          ColumnReference.filter("user_id", PredicateKind.EQUALITY));
    }
  }
}
