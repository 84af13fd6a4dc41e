package dev.lakeops.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakeops.observe.LiveLakeState;
import dev.lakeops.observe.TableInspector;
import dev.lakeops.observe.TableSample;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code /api/tables} on a lake of 250 tables: pages, the name filter and both orders. */
class TablePagingTest {
  private static final Instant NOW = Instant.parse("2026-12-05T06:00:00Z");

  private final LiveLakeState state = new LiveLakeState(Clock.fixed(NOW, ZoneOffset.UTC));
  private final DashboardData data =
      new DashboardData(
          state, TableInspector.none(), RunPredictions.NONE, Clock.fixed(NOW, ZoneOffset.UTC));

  TablePagingTest() {
    for (int index = 0; index < 250; index++) {
      // every tenth table is fragmented: scores 5, 15, ..., the rest healthy
      int score = index % 10 == 0 ? 5 + index / 10 : 100;
      state.tableEvaluated(
          new TableSample(
              String.format("db.t%03d", index),
              NOW,
              score,
              score < 90 ? "small-files" : "",
              20,
              0,
              0,
              1));
    }
  }

  @Test
  void theDefaultIsTheFirstPageWorstFirstWithPagingFields() {
    ApiDocuments.Lake lake = data.lake();

    assertThat(lake.tables()).hasSize(TableQuery.DEFAULT_LIMIT);
    assertThat(lake.tables().get(0).table()).isEqualTo("db.t000");
    assertThat(lake.tables().get(24).table()).isEqualTo("db.t240");
    assertThat(lake.tables().get(25).healthScore()).isEqualTo(100);
    assertThat(lake.lakeTables()).isEqualTo(250);
    assertThat(lake.unhealthyTables()).isEqualTo(25);
    assertThat(lake.matchingTables()).isEqualTo(250);
    assertThat(lake.nextOffset()).isEqualTo(100);
  }

  @Test
  void pagesFollowEachOtherToTheLast() {
    ApiDocuments.Lake last = data.lake(TableQuery.parse(Map.of("offset", "200", "limit", "100")));

    assertThat(last.tables()).hasSize(50);
    assertThat(last.offset()).isEqualTo(200);
    assertThat(last.nextOffset()).isNull();
    assertThat(data.lake(TableQuery.parse(Map.of("offset", "900"))).tables()).isEmpty();
  }

  @Test
  void theNameFilterAndTheNameOrderSelect() {
    ApiDocuments.Lake filtered =
        data.lake(TableQuery.parse(Map.of("q", "T12", "sort", "name", "limit", "5")));

    assertThat(filtered.tables())
        .extracting(ApiDocuments.TableRow::table)
        .containsExactly("db.t120", "db.t121", "db.t122", "db.t123", "db.t124");
    assertThat(filtered.matchingTables()).isEqualTo(10);
    assertThat(filtered.nextOffset()).isEqualTo(5);
    assertThat(filtered.lakeTables()).isEqualTo(250);
  }

  @Test
  void badParametersAreExplained() {
    assertThatThrownBy(() -> TableQuery.parse(Map.of("limit", "5000")))
        .hasMessage("Invalid limit '5000': use a number from 1 to 1000");
    assertThatThrownBy(() -> TableQuery.parse(Map.of("sort", "size")))
        .hasMessage("Invalid sort 'size': use health (worst first) or name");
    assertThatThrownBy(() -> TableQuery.parse(Map.of("page", "2")))
        .hasMessage("Unknown parameter 'page' of /api/tables: use q, sort, offset or limit");
    assertThat(List.of(TableQuery.parse(Map.of()))).containsExactly(TableQuery.DEFAULT);
  }
}
