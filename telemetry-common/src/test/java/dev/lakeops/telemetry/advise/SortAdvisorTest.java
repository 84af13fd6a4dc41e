package dev.lakeops.telemetry.advise;

import static dev.lakeops.telemetry.event.TelemetryEvents.NOW;
import static dev.lakeops.telemetry.event.TelemetryEvents.ORDERS;
import static dev.lakeops.telemetry.event.TelemetryEvents.event;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lakeops.telemetry.event.ColumnReference;
import dev.lakeops.telemetry.event.PredicateKind;
import dev.lakeops.telemetry.event.ScanVolume;
import dev.lakeops.telemetry.event.TableName;
import dev.lakeops.telemetry.event.TelemetryEvent;
import dev.lakeops.telemetry.store.TelemetryStore;
import dev.lakeops.telemetry.store.TelemetryStoreFactory;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Synthetic workloads recorded in a real SQLite store, advised on at a fixed instant. */
class SortAdvisorTest {
  private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

  @TempDir Path directory;
  private TelemetryStore store;

  @BeforeEach
  void openStore() {
    store = TelemetryStoreFactory.open("sqlite:" + directory.resolve("telemetry.db"));
  }

  @AfterEach
  void closeStore() {
    store.close();
  }

  @Test
  void sortsByTheColumnMostFiltersUseForEquality() {
    record(
        90, NOW, ScanVolume.unknown(), ColumnReference.filter("user_id", PredicateKind.EQUALITY));
    record(5, NOW, ScanVolume.unknown(), ColumnReference.filter("ts", PredicateKind.RANGE));
    record(5, NOW, ScanVolume.unknown(), ColumnReference.filter("status", PredicateKind.EQUALITY));

    SortAdvice advice = advisor(ColumnStatisticsSource.none()).advise(ORDERS);

    assertThat(advice.layout()).isEqualTo(LayoutKind.SORT);
    assertThat(advice.columns()).containsExactly("user_id");
    assertThat(advice.confident()).isTrue();
    assertThat(advice.confidence()).isCloseTo(0.892, within(0.001));
    assertThat(advice.filterEventCount()).isEqualTo(100);
    assertThat(advice.rankings()).extracting(ColumnRanking::column).first().isEqualTo("user_id");
    assertThat(advice.explanation())
        .startsWith(
            "Over the last 70 days (usage halves every 7 days and counts more for larger scans),"
                + " 100 queries with filters from 1 engine were recorded across 3 filtered"
                + " columns.")
        .contains(
            "Sort lake.sales.orders by user_id: user_id carries 90% of the weighted filter use,"
                + " mostly equality filters.")
        .endsWith("Confidence 0.89 (confident).");
  }

  @Test
  void zordersTwoColumnsWithEqualRangeUse() {
    record(
        60, NOW, ScanVolume.unknown(), ColumnReference.filter("pickup_time", PredicateKind.RANGE));
    record(60, NOW, ScanVolume.unknown(), ColumnReference.filter("fare", PredicateKind.RANGE));

    SortAdvice advice = advisor(ColumnStatisticsSource.none()).advise(ORDERS);

    assertThat(advice.layout()).isEqualTo(LayoutKind.ZORDER);
    assertThat(advice.columns()).containsExactly("fare", "pickup_time");
    assertThat(advice.confidence()).isEqualTo(0.969);
    assertThat(advice.confident()).isTrue();
    assertThat(advice.explanation()).contains("Z-order lake.sales.orders by fare, pickup_time");
  }

  @Test
  void refusesToAdviseOnTooFewQueries() {
    record(
        19, NOW, ScanVolume.unknown(), ColumnReference.filter("user_id", PredicateKind.EQUALITY));

    SortAdvice advice = advisor(ColumnStatisticsSource.none()).advise(ORDERS);

    assertThat(advice.layout()).isEqualTo(LayoutKind.INSUFFICIENT_DATA);
    assertThat(advice.columns()).isEmpty();
    assertThat(advice.confident()).isFalse();
    assertThat(advice.confidence()).isZero();
    assertThat(advice.explanation())
        .isEqualTo(
            "No layout advised for lake.sales.orders: 19 queries with filters were recorded in the"
                + " last 70 days, and at least 20 are needed (option minimumFilterEvents). Record"
                + " more queries or lower the minimum.");
  }

  @Test
  void thirtyTwoQueriesThatAgreeAreEnoughAndThirtyTwoThatDisagreeAreNot() {
    record(
        32, NOW, ScanVolume.unknown(), ColumnReference.filter("user_id", PredicateKind.EQUALITY));

    SortAdvice agreeing = advisor(ColumnStatisticsSource.none()).advise(ORDERS);

    assertThat(agreeing.layout()).isEqualTo(LayoutKind.SORT);
    assertThat(agreeing.confidence()).isEqualTo(0.893);
    assertThat(agreeing.confident()).isTrue();

    TableName split = TableName.of("lake", "sales", "split");
    for (int query = 0; query < 32; query++) {
      store.append(
          List.of(
              event(
                  split,
                  NOW,
                  ScanVolume.unknown(),
                  ColumnReference.filter(query < 20 ? "user_id" : "ts", PredicateKind.EQUALITY))));
    }

    SortAdvice disagreeing = advisor(ColumnStatisticsSource.none()).advise(split);

    assertThat(disagreeing.layout()).isEqualTo(LayoutKind.SORT);
    assertThat(disagreeing.confident()).isFalse();
    assertThat(LayoutChooser.dataFactor(1.0, 20)).isCloseTo(0.839, within(0.001));
    assertThat(LayoutChooser.dataFactor(0.75, 32)).isCloseTo(0.772, within(0.001));
  }

  @Test
  void namesTheTablesTheStoreHoldsClosestFirstWhenNothingMatches() {
    record(3, NOW, ScanVolume.unknown(), ColumnReference.filter("user_id", PredicateKind.EQUALITY));
    store.append(
        List.of(
            event(
                TableName.of("cat", "db", "event"),
                NOW,
                ScanVolume.unknown(),
                ColumnReference.filter("ts", PredicateKind.RANGE))));

    SortAdvice advice =
        advisor(ColumnStatisticsSource.none()).advise(TableName.of("lakeops", "db", "events"));

    assertThat(advice.layout()).isEqualTo(LayoutKind.INSUFFICIENT_DATA);
    assertThat(advice.otherTables()).containsExactly(TableName.of("cat", "db", "event"), ORDERS);
    assertThat(advice.explanation())
        .isEqualTo(
            "No layout advised for lakeops.db.events: no queries on it were recorded in the last 70 days"
                + " (matched by namespace db and table events in any catalog). The store holds queries for:"
                + " cat.db.event, lake.sales.orders (closest to the name first). Check the table name, or that"
                + " the engines record into this store.");
  }

  @Test
  void recentUseOutweighsOldHeavyUse() {
    record(
        200,
        NOW.minus(Duration.ofDays(60)),
        ScanVolume.unknown(),
        ColumnReference.filter("legacy_id", PredicateKind.EQUALITY));
    record(
        40,
        NOW,
        ScanVolume.unknown(),
        ColumnReference.filter("customer_id", PredicateKind.EQUALITY));

    SortAdvice advice = advisor(ColumnStatisticsSource.none()).advise(ORDERS);

    assertThat(advice.layout()).isEqualTo(LayoutKind.SORT);
    assertThat(advice.columns()).containsExactly("customer_id");
    assertThat(advice.rankings())
        .extracting(ColumnRanking::column, ColumnRanking::filterReferences)
        .containsExactly(tuple("customer_id", 40L), tuple("legacy_id", 200L));
  }

  @Test
  void lowCardinalityColumnRanksBelowHighCardinalityAtEqualUse() {
    record(
        50,
        NOW,
        ScanVolume.unknown(),
        ColumnReference.filter("is_active", PredicateKind.EQUALITY),
        ColumnReference.filter("user_id", PredicateKind.EQUALITY));
    ColumnStatisticsSource statistics =
        ColumnStatisticsSource.of(
            Map.of(
                "is_active", ColumnStatistics.ofDistinctCount(2),
                "user_id", ColumnStatistics.ofDistinctCount(1_000_000)));

    SortAdvice withStatistics = advisor(statistics).advise(ORDERS);
    SortAdvice withoutStatistics = advisor(ColumnStatisticsSource.none()).advise(ORDERS);

    assertThat(withStatistics.layout()).isEqualTo(LayoutKind.SORT);
    assertThat(withStatistics.columns()).first().isEqualTo("user_id");
    assertThat(withStatistics.rankings())
        .extracting(ColumnRanking::column)
        .containsExactly("user_id", "is_active");
    assertThat(withStatistics.rankings().get(0).distinctCount()).hasValue(1_000_000);
    assertThat(withStatistics.explanation()).contains("about 1,000,000 distinct values");
    assertThat(withoutStatistics.layout()).isEqualTo(LayoutKind.ZORDER);
  }

  @Test
  void largerScansWeighMore() {
    record(
        50,
        NOW,
        ScanVolume.ofBytes(1L << 20),
        ColumnReference.filter("small", PredicateKind.RANGE));
    record(
        50,
        NOW,
        ScanVolume.ofBytes(100L << 30),
        ColumnReference.filter("large", PredicateKind.RANGE));

    SortAdvice advice = advisor(ColumnStatisticsSource.none()).advise(ORDERS);

    assertThat(advice.layout()).isEqualTo(LayoutKind.SORT);
    assertThat(advice.columns()).first().isEqualTo("large");
  }

  @Test
  void writesAdviceAsJson() throws Exception {
    record(
        30, NOW, ScanVolume.unknown(), ColumnReference.filter("user_id", PredicateKind.EQUALITY));

    JsonNode json =
        new ObjectMapper().readTree(advisor(ColumnStatisticsSource.none()).advise(ORDERS).toJson());

    assertThat(json.get("table").get("table").asText()).isEqualTo("orders");
    assertThat(json.get("layout").asText()).isEqualTo("SORT");
    assertThat(json.get("columns").get(0).asText()).isEqualTo("user_id");
    assertThat(json.get("confidence").asDouble()).isEqualTo(0.886);
    assertThat(json.get("confident").asBoolean()).isTrue();
    assertThat(json.get("filterEventCount").asLong()).isEqualTo(30);
    JsonNode ranking = json.get("rankings").get(0);
    assertThat(ranking.get("mainPredicateKind").asText()).isEqualTo("EQUALITY");
    assertThat(ranking.get("distinctCount").isNull()).isTrue();
    assertThat(ranking.get("share").asDouble()).isEqualTo(1.0);
  }

  @Test
  void cardinalityFactorGrowsWithDistinctValues() {
    assertThat(ColumnScorer.cardinalityFactor(OptionalLong.empty())).isEqualTo(1.0);
    assertThat(ColumnScorer.cardinalityFactor(OptionalLong.of(1))).isEqualTo(0.25);
    assertThat(ColumnScorer.cardinalityFactor(OptionalLong.of(2))).isCloseTo(0.297, within(0.001));
    assertThat(ColumnScorer.cardinalityFactor(OptionalLong.of(1 << 16))).isEqualTo(1.0);
  }

  @Test
  void rejectsOptionsOutOfRange() {
    assertThatThrownBy(() -> SortAdvisorOptions.defaults().withMinimumFilterEvents(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("minimumFilterEvents must be at least 1: 0");
    assertThatThrownBy(() -> SortAdvisorOptions.defaults().withHalfLife(Duration.ofDays(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("halfLife must be positive: PT-24H");
  }

  private SortAdvisor advisor(ColumnStatisticsSource statistics) {
    return new SortAdvisor(store, statistics, SortAdvisorOptions.defaults(), CLOCK);
  }

  private void record(int count, Instant at, ScanVolume volume, ColumnReference... columns) {
    List<TelemetryEvent> events = new ArrayList<>();
    for (int index = 0; index < count; index++) {
      events.add(event(ORDERS, at, volume, columns));
    }
    store.append(events);
  }
}
