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
    store.close();
  }

  @Test
  void createsSchemaAtLatestVersion() {
    assertThat(store.schemaVersion()).isEqualTo(SchemaMigrator.LATEST_VERSION).isEqualTo(3);
    assertThat(store.countEvents()).isZero();
  }

  @Test
  void reopeningKeepsEventsAndDoesNotMigrateTwice() {
    store.append(List.of(TelemetryEventsForStore.userIdFilter(NOW)));
    store.close();

    store = JdbcTelemetryStore.open(store.location());

    assertThat(store.schemaVersion()).isEqualTo(3);
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
            "Telemetry store schema is at version 99 but this LakeOps knows versions up to 3:"
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
