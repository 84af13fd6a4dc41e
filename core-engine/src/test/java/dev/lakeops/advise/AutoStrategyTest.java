package dev.lakeops.advise;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.compact.Strategy;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.demo.DemoTableGenerator;
import dev.lakeops.plan.RewriteOptions;
import dev.lakeops.telemetry.advise.SortAdvice;
import dev.lakeops.telemetry.event.PredicateKind;
import dev.lakeops.telemetry.event.TableName;
import dev.lakeops.telemetry.store.TelemetryStore;
import dev.lakeops.telemetry.store.TelemetryStoreFactory;
import dev.lakeops.verify.RowFingerprint;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --strategy auto} on real tables with real SQLite and PostgreSQL telemetry stores. */
class AutoStrategyTest {
  private static final Map<String, String> SMALL_FILES =
      Map.of(RewriteOptions.TARGET_FILE_SIZE_BYTES, String.valueOf(32 * 1024));

  @TempDir Path warehouse;
  private Table table;
  private TableName telemetryName;
  private String sqlite;

  @BeforeEach
  void createTable() {
    HadoopCatalog catalog =
        new HadoopCatalog(new Configuration(), warehouse.resolve("warehouse").toString());
    table =
        new DemoTableGenerator(catalog)
            .create(TableIdentifier.of("db", "events"), 2, 2, 12, 500, 4);
    telemetryName = TelemetryTableNames.of(table);
    sqlite = "sqlite:" + warehouse.resolve("telemetry.db");
  }

  @Test
  void sortsByTheAdvisedColumnWhenTelemetryIsConfident() {
    TelemetryFixtures.recordFilters(sqlite, telemetryName, "user_id", PredicateKind.EQUALITY, 100);
    RowFingerprint before = RowFingerprint.of(table);

    CompactionResult result =
        new AdvisedCompactor(new TableCompactor()).compact(table, auto(sqlite));

    assertThat(result.strategy()).isEqualTo("auto->sort");
    assertThat(result.strategyReason())
        .startsWith("sort by user_id ASC: the advice is confident (confidence 0.963). ")
        .contains("user_id");
    assertThat(result.inputFiles()).isEqualTo(12);
    assertThat(result.outputFiles()).isGreaterThan(2);
    assertThat(result.overlappingFiles()).isZero();
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
  }

  @Test
  void laysOutTwoColumnsFilteredAlikeAsTheQueryClassesWeighItBest() {
    TelemetryFixtures.recordFilters(sqlite, telemetryName, "user_id", PredicateKind.EQUALITY, 60);
    TelemetryFixtures.recordFilters(sqlite, telemetryName, "ts", PredicateKind.RANGE, 60);
    RowFingerprint before = RowFingerprint.of(table);
    TableAdvice advice;
    try (TelemetryStore store = TelemetryStoreFactory.open(sqlite)) {
      advice =
          TableAdvisor.withDefaults(store)
              .adviseWithCosts(table, Long.parseLong(SMALL_FILES.values().iterator().next()));
    }

    CompactionResult result =
        new AdvisedCompactor(new TableCompactor()).compact(table, auto(sqlite));

    LayoutEvaluation chosen = advice.chosen().orElseThrow();
    assertThat(chosen).isEqualTo(advice.evaluations().get(0));
    assertThat(chosen.acceptable()).isTrue();
    assertThat(chosen.candidate().columns()).contains("user_id");
    assertThat(result.strategy())
        .isEqualTo("auto->" + chosen.candidate().layout().name().toLowerCase(Locale.ROOT));
    assertThat(result.strategyReason()).contains("the advice is confident");
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
  }

  @Test
  void binpacksWhenThereAreTooFewEvents() {
    TelemetryFixtures.recordFilters(sqlite, telemetryName, "user_id", PredicateKind.EQUALITY, 5);
    RowFingerprint before = RowFingerprint.of(table);

    CompactionResult result =
        new AdvisedCompactor(new TableCompactor()).compact(table, auto(sqlite));

    assertThat(result.strategy()).isEqualTo("auto->binpack");
    assertThat(result.strategyReason())
        .startsWith("binpack: no confident layout advice. ")
        .contains("5");
    assertThat(result.inputFiles()).isEqualTo(12);
    assertThat(result.overlappingFiles()).isZero();
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
  }

  @Test
  void binpacksWhenTheAdviceIsNotConfident() {
    // 22 filter queries spread over 11 columns: no column dominates, and no layout is confident
    for (String column :
        List.of(
            "user_id",
            "ts",
            "country",
            "event_type",
            "amount",
            "day",
            "payload",
            "event_id",
            "a",
            "b",
            "c")) {
      TelemetryFixtures.recordFilters(sqlite, telemetryName, column, PredicateKind.EQUALITY, 2);
    }

    CompactionResult result =
        new AdvisedCompactor(new TableCompactor())
            .compact(table, auto(sqlite).toBuilder().dryRun(true).build());

    assertThat(result.strategy()).isEqualTo("auto->binpack");
    assertThat(result.strategyReason())
        .startsWith("binpack: the advice (")
        .contains(") is not confident enough (confidence ");
    assertThat(result.dryRun()).isTrue();
  }

  @Test
  void advisesAndSortsFromPostgresqlTelemetry() throws Exception {
    try (TelemetryFixtures.PostgresqlSchema schema = new TelemetryFixtures.PostgresqlSchema()) {
      TelemetryFixtures.recordFilters(
          schema.storeConfiguration(), telemetryName, "user_id", PredicateKind.RANGE, 60);
      TelemetryFixtures.recordFilters(
          schema.storeConfiguration(), telemetryName, "country", PredicateKind.EQUALITY, 40);
      RowFingerprint before = RowFingerprint.of(table);

      SortAdvice advice;
      try (TelemetryStore store = TelemetryStoreFactory.open(schema.storeConfiguration())) {
        advice =
            TableAdvisor.withDefaults(store)
                .adviseWithCosts(table, Long.parseLong(SMALL_FILES.values().iterator().next()))
                .advice();
      }
      CompactionResult result =
          new AdvisedCompactor(new TableCompactor())
              .compact(table, auto(schema.storeConfiguration()));

      // user_id (~6,000 distinct) outweighs country (a few distinct bounds) though both are
      // filtered
      assertThat(advice.rankings().get(0).column()).isEqualTo("user_id");
      assertThat(advice.confident()).isTrue();
      assertThat(advice.columns()).contains("user_id");
      assertThat(advice.rankings().get(0).distinctCount().getAsLong()).isBetween(5_000L, 6_000L);
      assertThat(result.strategy())
          .isEqualTo("auto->" + advice.layout().name().toLowerCase(Locale.ROOT));
      assertThat(RowFingerprint.of(table)).isEqualTo(before);
      assertThat(RowFingerprint.of(table)).isEqualTo(before);
    }
  }

  @Test
  void unreachableStoreFailsTheCompaction() {
    String unreachable = "jdbc:postgresql://127.0.0.1:1/none?user=postgres&connectTimeout=2";

    assertThatThrownBy(
            () -> new AdvisedCompactor(new TableCompactor()).compact(table, auto(unreachable)))
        .hasMessageContaining("127.0.0.1:1")
        .hasMessageNotContaining("user=postgres");
  }

  @Test
  void theCompactorItselfRefusesAnUnresolvedAuto() throws Exception {
    String sqlite = "sqlite:" + warehouse.resolve("refused.db");
    RowFingerprint before = RowFingerprint.of(table);

    assertThatThrownBy(() -> new TableCompactor().compact(table, auto(sqlite)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Strategy 'auto' must be resolved before compacting")
        .hasMessageContaining("AdvisedCompactor");
    table.refresh();
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
  }

  private static CompactionRequest auto(String store) {
    return CompactionRequest.builder()
        .strategy(Strategy.AUTO)
        .options(SMALL_FILES)
        .telemetryStore(store)
        .build();
  }
}
