package dev.lakeops.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The documented JSON endpoints over HTTP, against a real lake compacted once. */
class JsonApiTest {
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path warehouse;
  private static ObservedLake lake;

  @BeforeAll
  static void start() {
    lake = new ObservedLake(warehouse);
  }

  @AfterAll
  static void stop() throws Exception {
    lake.close();
  }

  @Test
  void tablesAreListedWorstFirstWithHistoryLastRunQueueAndBudget() throws Exception {
    JsonNode lakeDocument = get("/api/tables", 200);

    assertThat(names(lakeDocument.get("tables")))
        .containsExactly(ObservedLake.FRAGMENTED, ObservedLake.HEALTHY, ObservedLake.COMPACTED);
    JsonNode events = lakeDocument.get("tables").get(0);
    assertThat(events.get("health_score").asInt()).isEqualTo(6);
    assertThat(events.get("worst_part").asText()).startsWith("small-files");
    assertThat(events.get("small_files").asLong()).isEqualTo(16);
    assertThat(events.get("queued").get(0).get("reason").asText())
        .isEqualTo("part=0: 16 small files >= 12");
    assertThat(events.get("last_run").get("status").asText()).isEqualTo("failed");

    JsonNode orders = lakeDocument.get("tables").get(2);
    assertThat(orders.get("health_history")).hasSize(13);
    assertThat(orders.get("health_history").get(11).get("health_score").asInt()).isLessThan(90);
    assertThat(orders.get("health_history").get(12).get("health_score").asInt()).isEqualTo(100);
    assertThat(orders.get("last_run").get("run_id").asText()).isEqualTo("run-1");
    assertThat(orders.get("last_run").get("input_files").asLong()).isEqualTo(24);

    assertThat(lakeDocument.get("budget").get("used_bytes").asLong())
        .isEqualTo(ObservedLake.BUDGET_USED);
    assertThat(lakeDocument.get("budget").get("total_bytes").asLong())
        .isEqualTo(ObservedLake.BUDGET_TOTAL);
    assertThat(lakeDocument.get("queue")).hasSize(1);
    assertThat(lakeDocument.get("queue").get(0).get("predicted_seconds").asDouble()).isEqualTo(3.0);
    assertThat(lakeDocument.get("runs")).hasSize(2);
    assertThat(lakeDocument.get("lake_tables").asInt()).isEqualTo(3);
    assertThat(lakeDocument.get("matching_tables").asInt()).isEqualTo(3);
    assertThat(lakeDocument.get("limit").asInt()).isEqualTo(100);
    assertThat(lakeDocument.get("next_offset").isNull()).isTrue();
  }

  @Test
  void tablesArePagedAndFilteredOverHttp() throws Exception {
    JsonNode page = get("/api/tables?sort=name&limit=2", 200);
    assertThat(names(page.get("tables")))
        .containsExactly(ObservedLake.HEALTHY, ObservedLake.FRAGMENTED);
    assertThat(page.get("next_offset").asInt()).isEqualTo(2);
    assertThat(names(get("/api/tables?sort=name&limit=2&offset=2", 200).get("tables")))
        .containsExactly(ObservedLake.COMPACTED);
    assertThat(names(get("/api/tables?q=ORD", 200).get("tables")))
        .containsExactly(ObservedLake.COMPACTED);
    assertThat(get("/api/tables?offset=-1", 400).get("error").asText())
        .isEqualTo("Invalid offset '-1': use a number from 0 to 2147483647");
  }

  @Test
  void aTablesDocumentHasFileSizesBytesRewrittenPolicyAndRuns() throws Exception {
    JsonNode orders = get("/api/tables/db.orders", 200);

    JsonNode sizes = orders.get("file_sizes");
    assertThat(sum(sizes.get("now"))).isEqualTo(2);
    assertThat(sum(sizes.get("after_last_compaction"))).isEqualTo(2);
    assertThat(sizes.get("last_compaction_snapshot_id").asLong())
        .isEqualTo(lake.compaction.snapshotId().getAsLong());
    assertThat(sizes.get("bucket_upper_bytes")).hasSameSizeAs(sizes.get("now"));
    assertThat(orders.get("rewritten_bytes_per_day")).hasSize(1);
    assertThat(orders.get("rewritten_bytes_per_day").get(0).get("bytes").asLong())
        .isEqualTo(lake.compaction.inputBytes());

    assertThat(policySource(orders, "compact.min-small-files")).isEqualTo("catalog");
    assertThat(policySource(orders, "expire.retain-last")).isEqualTo("namespace:db");
    assertThat(policySource(orders, "compact.options.partial-progress.enabled"))
        .isEqualTo("table:db.orders");
    assertThat(policySource(orders, "compact.min-delete-files")).isEqualTo("default");

    assertThat(names(orders.get("runs"))).containsExactly(ObservedLake.COMPACTED);
    assertThat(orders.get("runs").get(0).get("duration_seconds").asDouble())
        .isEqualTo(lake.compaction.elapsed().toMillis() / 1000.0);

    JsonNode events = get("/api/tables/db.events", 200);
    assertThat(events.get("file_sizes").get("after_last_compaction").isNull()).isTrue();
    assertThat(events.get("runs").get(0).get("error").asText()).isEqualTo("table locked by flink");
  }

  @Test
  void runsCanBeFilteredAndBadRequestsAreExplained() throws Exception {
    JsonNode runs = get("/api/runs?table=db.events", 200);
    assertThat(runs.get("runs")).hasSize(1);
    assertThat(runs.get("runs").get(0).get("operation").asText()).isEqualTo("expire-snapshots");
    assertThat(get("/api/runs?limit=1", 200).get("runs")).hasSize(1);

    assertThat(get("/api/runs?limit=0", 400).get("error").asText())
        .isEqualTo("Invalid limit '0': use a number from 1 to 1000");
    assertThat(get("/api/tables/db.nothing", 404).get("error").asText())
        .isEqualTo(
            "Unknown table 'db.nothing': see /api/tables for the tables this daemon watches");
  }

  private static JsonNode get(String path, int status) throws Exception {
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(lake.server.url() + path)).build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(path).isEqualTo(status);
    assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
    return JSON.readTree(response.body());
  }

  private static List<String> names(JsonNode rows) {
    List<String> names = new ArrayList<>();
    rows.forEach(row -> names.add(row.get("table").asText()));
    return names;
  }

  private static long sum(JsonNode counts) {
    long total = 0;
    for (JsonNode count : counts) {
      total += count.asLong();
    }
    return total;
  }

  private static String policySource(JsonNode table, String key) {
    for (JsonNode row : table.get("policy")) {
      if (row.get("key").asText().equals(key)) {
        return row.get("source").asText();
      }
    }
    throw new AssertionError("No policy key " + key + " in " + table.get("policy"));
  }
}
