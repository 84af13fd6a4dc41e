package dev.lakeops.observe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Per-table series cover only the worst tables; the lake-wide counts cover every table. */
class BoundedTableMetricsTest {
  private static final Instant NOW = Instant.parse("2026-12-05T06:00:00Z");

  @Test
  void onlyTheWorstTablesHaveSeriesAndTheyFollowTheScores() throws IOException {
    LakeMetrics metrics = new LakeMetrics(3);
    for (int index = 0; index < 50; index++) {
      metrics.tableEvaluated(sample("db.t" + index, index < 5 ? 10 + index : 100));
    }

    assertThat(tablesWithSeries(scrape(metrics))).containsExactly("db.t0", "db.t1", "db.t2");
    String text = scrape(metrics);
    assertThat(text).contains("lakeops_tables 50.0").contains("lakeops_tables_unhealthy 5.0");

    metrics.tableEvaluated(sample("db.t0", 100));
    metrics.tableEvaluated(sample("db.t40", 1));
    metrics.tableRemoved("db.t1");

    assertThat(tablesWithSeries(scrape(metrics))).containsExactly("db.t40", "db.t2", "db.t3");
    assertThat(scrape(metrics)).contains("lakeops_tables 49.0");
  }

  @Test
  void aBoundUnderOneIsRefused() {
    assertThatThrownBy(() -> new LakeMetrics(0))
        .hasMessage("metrics.table-series must be at least 1, got 0");
  }

  private static TableSample sample(String table, int score) {
    return new TableSample(table, NOW, score, score < 90 ? "small-files" : "", 10, 5, 0, 100);
  }

  private static String scrape(LakeMetrics metrics) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    metrics.write("text/plain", out);
    return out.toString(StandardCharsets.UTF_8);
  }

  /** The tables of the health score series, in the order of their scores. */
  private static List<String> tablesWithSeries(String text) {
    return text.lines()
        .filter(line -> line.startsWith("lakeops_table_health_score{"))
        .sorted(
            java.util.Comparator.comparingDouble(
                line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1))))
        .map(line -> line.substring(line.indexOf("table=\"") + 7, line.indexOf("\"}")))
        .toList();
  }
}
