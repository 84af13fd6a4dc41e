package dev.lakeops.advise;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.compact.Strategy;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.demo.DemoTableGenerator;
import dev.lakeops.plan.RewriteOptions;
import dev.lakeops.telemetry.advise.LayoutKind;
import dev.lakeops.telemetry.advise.SortAdvice;
import dev.lakeops.telemetry.event.PredicateKind;
import dev.lakeops.telemetry.event.TableName;
import dev.lakeops.telemetry.store.TelemetryStore;
import dev.lakeops.telemetry.store.TelemetryStoreFactory;
import dev.lakeops.verify.RowFingerprint;
import java.nio.file.Path;
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
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse.resolve("warehouse").toString());
    table = new DemoTableGenerator(catalog).create(TableIdentifier.of("db", "events"), 2, 2, 12, 500, 4);
    telemetryName = TelemetryTableNames.of(table);
    sqlite = "sqlite:" + warehouse.resolve("telemetry.db");
  }

  @Test
  void sortsByTheAdvisedColumnWhenTelemetryIsConfident() {
    TelemetryFixtures.recordFilters(sqlite, telemetryName, "user_id", PredicateKind.EQUALITY, 100);
    RowFingerprint before = RowFingerprint.of(table);

    CompactionResult result = new TableCompactor().compact(table, auto(sqlite));

    assertThat(result.strategy()).isEqualTo("auto->sort");
    assertThat(result.strategyReason())
        .startsWith("sort by user_id ASC: the advice is confident (confidence 1.000). ")
        .contains("user_id");
    assertThat(result.inputFiles()).isEqualTo(12);
    assertThat(result.outputFiles()).isGreaterThan(2);
    assertThat(result.overlappingFiles()).isZero();
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
  }

  @Test
  void zordersTwoColumnsFilteredAlike() {
    TelemetryFixtures.recordFilters(sqlite, telemetryName, "user_id", PredicateKind.EQUALITY, 60);
    TelemetryFixtures.recordFilters(sqlite, telemetryName, "ts", PredicateKind.RANGE, 60);
    RowFingerprint before = RowFingerprint.of(table);

    CompactionResult result = new TableCompactor().compact(table, auto(sqlite));

    assertThat(result.strategy()).isEqualTo("auto->zorder");
    assertThat(result.strategyReason()).startsWith("zorder by ts, user_id: the advice is confident");
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
  }

  @Test
  void binpacksWhenThereAreTooFewEvents() {
    TelemetryFixtures.recordFilters(sqlite, telemetryName, "user_id", PredicateKind.EQUALITY, 5);
    RowFingerprint before = RowFingerprint.of(table);

    CompactionResult result = new TableCompactor().compact(table, auto(sqlite));

    assertThat(result.strategy()).isEqualTo("auto->binpack");
    assertThat(result.strategyReason()).startsWith("binpack: no confident layout advice. ").contains("5");
    assertThat(result.inputFiles()).isEqualTo(12);
    assertThat(result.overlappingFiles()).isZero();
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
  }

  @Test
  void binpacksWhenTheAdviceIsNotConfident() {
    // 30 filter queries: enough to advise (20) but a data factor of 0.3, below the 0.6 threshold
    TelemetryFixtures.recordFilters(sqlite, telemetryName, "user_id", PredicateKind.EQUALITY, 30);

    CompactionResult result = new TableCompactor().compact(table, auto(sqlite).toBuilder().dryRun(true).build());

    assertThat(result.strategy()).isEqualTo("auto->binpack");
    assertThat(result.strategyReason()).startsWith("binpack: the advice (sort by user_id) is not confident enough (confidence 0.300). ");
    assertThat(result.dryRun()).isTrue();
  }

  @Test
  void advisesAndSortsFromPostgresqlTelemetry() throws Exception {
    try (TelemetryFixtures.PostgresqlSchema schema = new TelemetryFixtures.PostgresqlSchema()) {
      TelemetryFixtures.recordFilters(schema.storeConfiguration(), telemetryName, "user_id", PredicateKind.RANGE, 60);
      TelemetryFixtures.recordFilters(schema.storeConfiguration(), telemetryName, "country", PredicateKind.EQUALITY, 40);
      RowFingerprint before = RowFingerprint.of(table);

      SortAdvice advice;
      try (TelemetryStore store = TelemetryStoreFactory.open(schema.storeConfiguration())) {
        advice = TableAdvisor.withDefaults(store).advise(table);
      }
      CompactionResult result = new TableCompactor().compact(table, auto(schema.storeConfiguration()));

      // user_id (~6,000 distinct) outweighs country (a few distinct bounds) though both are filtered
      assertThat(advice.layout()).isEqualTo(LayoutKind.SORT);
      assertThat(advice.columns()).first().isEqualTo("user_id");
      assertThat(advice.confident()).isTrue();
      assertThat(advice.rankings().get(0).distinctCount().getAsLong()).isBetween(5_000L, 6_000L);
      assertThat(result.strategy()).isEqualTo("auto->sort");
      assertThat(result.strategyReason()).startsWith("sort by " + String.join(" ASC, ", advice.columns()) + " ASC: ");
      assertThat(RowFingerprint.of(table)).isEqualTo(before);
    }
  }

  @Test
  void unreachableStoreFailsTheCompaction() {
    String unreachable = "jdbc:postgresql://127.0.0.1:1/none?user=postgres&connectTimeout=2";

    assertThatThrownBy(() -> new TableCompactor().compact(table, auto(unreachable)))
        .hasMessageContaining("127.0.0.1:1")
        .hasMessageNotContaining("user=postgres");
  }

  private static CompactionRequest auto(String store) {
    return CompactionRequest.builder().strategy(Strategy.AUTO).options(SMALL_FILES).telemetryStore(store).build();
  }
}
