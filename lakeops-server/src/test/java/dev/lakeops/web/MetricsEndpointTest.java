package dev.lakeops.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.expositionformats.generated.com_google_protobuf_4_36_2.Metrics.Bucket;
import io.prometheus.metrics.expositionformats.generated.com_google_protobuf_4_36_2.Metrics.LabelPair;
import io.prometheus.metrics.expositionformats.generated.com_google_protobuf_4_36_2.Metrics.Metric;
import io.prometheus.metrics.expositionformats.generated.com_google_protobuf_4_36_2.Metrics.MetricFamily;
import io.prometheus.metrics.expositionformats.generated.com_google_protobuf_4_36_2.Metrics.MetricType;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scrapes {@code /metrics} over HTTP after known runs and reads it with Prometheus' own parser: the
 * delimited protobuf {@code MetricFamily} messages a Prometheus server asks for, through the
 * Prometheus Java client's generated classes.
 */
class MetricsEndpointTest {
  private static final String PROTOBUF =
      "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited";

  @TempDir static Path warehouse;
  private static ObservedLake lake;
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @BeforeAll
  static void start() {
    lake = new ObservedLake(warehouse);
  }

  @AfterAll
  static void stop() throws Exception {
    lake.close();
  }

  @Test
  void everyDocumentedMetricIsExposedWithTheValuesOfTheKnownRuns() throws Exception {
    Map<String, MetricFamily> families = scrape();

    assertThat(families.keySet())
        .contains(
            "lakeops_table_health_score",
            "lakeops_table_data_files",
            "lakeops_table_small_files",
            "lakeops_table_delete_files",
            "lakeops_runs_total",
            "lakeops_rewritten_bytes_total",
            "lakeops_run_duration_seconds",
            "lakeops_queue_depth",
            "lakeops_memory_budget_used_bytes",
            "lakeops_commit_conflicts_total",
            "lakeops_lock_skips_total",
            "lakeops_object_requests_total",
            "lakeops_object_read_bytes_total",
            "lakeops_object_written_bytes_total",
            "lakeops_run_cpu_seconds_total",
            "lakeops_verified_rows_total",
            "lakeops_verification_failures_total");

    assertThat(families.get("lakeops_table_data_files").getType()).isEqualTo(MetricType.GAUGE);
    assertThat(gauge(families, "lakeops_table_data_files", Map.of("table", ObservedLake.COMPACTED)))
        .isEqualTo(2)
        .isEqualTo(lake.compaction.outputFiles());
    assertThat(
            gauge(families, "lakeops_table_data_files", Map.of("table", ObservedLake.FRAGMENTED)))
        .isEqualTo(16);
    assertThat(
            gauge(families, "lakeops_table_small_files", Map.of("table", ObservedLake.FRAGMENTED)))
        .isEqualTo(16);
    assertThat(
            gauge(families, "lakeops_table_delete_files", Map.of("table", ObservedLake.FRAGMENTED)))
        .isZero();
    assertThat(gauge(families, "lakeops_table_health_score", Map.of("table", ObservedLake.HEALTHY)))
        .isEqualTo(100);
    // 16 small files in one partition, 15 of them mergeable: 100 x (1 - 15/16)
    assertThat(
            gauge(families, "lakeops_table_health_score", Map.of("table", ObservedLake.FRAGMENTED)))
        .isEqualTo(6);
    assertThat(
            gauge(families, "lakeops_table_health_score", Map.of("table", ObservedLake.COMPACTED)))
        .isEqualTo(100);

    assertThat(families.get("lakeops_runs_total").getType()).isEqualTo(MetricType.COUNTER);
    assertThat(
            counter(
                families,
                "lakeops_runs_total",
                Map.of("operation", "compact", "status", "succeeded", "host", "serve")))
        .isEqualTo(1);
    assertThat(
            counter(
                families,
                "lakeops_runs_total",
                Map.of("operation", "expire-snapshots", "status", "failed", "host", "cli")))
        .isEqualTo(1);
    assertThat(counter(families, "lakeops_rewritten_bytes_total", Map.of("operation", "compact")))
        .isEqualTo(lake.compaction.inputBytes())
        .isPositive();
    assertThat(counter(families, "lakeops_commit_conflicts_total", Map.of())).isZero();
    assertThat(counter(families, "lakeops_lock_skips_total", Map.of())).isEqualTo(1);
    assertThat(gauge(families, "lakeops_queue_depth", Map.of())).isEqualTo(1);
    assertThat(gauge(families, "lakeops_memory_budget_used_bytes", Map.of()))
        .isEqualTo(ObservedLake.BUDGET_USED);

    Map<String, Double> expiryRequests = new LinkedHashMap<>();
    for (String kind : java.util.List.of("GET", "PUT", "HEAD", "LIST", "DELETE", "OTHER")) {
      expiryRequests.put(
          kind,
          counter(
              families,
              "lakeops_object_requests_total",
              Map.of("operation", "expire-snapshots", "kind", kind)));
    }
    assertThat(expiryRequests)
        .containsExactlyEntriesOf(
            orderedOf(
                "GET", 40.0, "PUT", 0.0, "HEAD", 3.0, "LIST", 2.0, "DELETE", 9.0, "OTHER", 1.0));
    assertThat(
            counter(
                families,
                "lakeops_object_read_bytes_total",
                Map.of("operation", "expire-snapshots")))
        .isEqualTo(1_000_000);
    assertThat(
            counter(
                families,
                "lakeops_object_written_bytes_total",
                Map.of("operation", "expire-snapshots")))
        .isZero();
    assertThat(
            counter(
                families, "lakeops_run_cpu_seconds_total", Map.of("operation", "expire-snapshots")))
        .isEqualTo(0.75);
    // the compaction ran on a local table: no object requests, but its CPU time is counted
    assertThat(
            counter(
                families,
                "lakeops_object_requests_total",
                Map.of("operation", "compact", "kind", "GET")))
        .isZero();
    assertThat(counter(families, "lakeops_run_cpu_seconds_total", Map.of("operation", "compact")))
        .isEqualTo(lake.compaction.cost().cpuSeconds())
        .isPositive();

    // the compaction verified every row it committed; no group failed
    assertThat(counter(families, "lakeops_verified_rows_total", Map.of()))
        .isEqualTo(lake.compaction.verifiedRows())
        .isPositive();
    assertThat(counter(families, "lakeops_verification_failures_total", Map.of())).isZero();

    MetricFamily duration = families.get("lakeops_run_duration_seconds");
    assertThat(duration.getType()).isEqualTo(MetricType.HISTOGRAM);
    Metric compactDuration = metric(duration, Map.of("operation", "compact"));
    assertThat(compactDuration.getHistogram().getSampleCount()).isEqualTo(1);
    assertThat(compactDuration.getHistogram().getSampleSum())
        .isCloseTo(
            lake.compaction.elapsed().toNanos() / 1e9, org.assertj.core.data.Offset.offset(1e-6));
    assertThat(compactDuration.getHistogram().getBucketList())
        .extracting(Bucket::getUpperBound)
        .startsWith(1.0, 5.0, 15.0, 30.0, 60.0);
  }

  @Test
  void plainScrapesGetTheTextFormatAndWritingMethodsAreRefused() throws Exception {
    HttpResponse<String> text =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(lake.server.url() + "/metrics")).build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(text.statusCode()).isEqualTo(200);
    assertThat(text.headers().firstValue("Content-Type"))
        .hasValue("text/plain; version=0.0.4; charset=utf-8");
    assertThat(text.body())
        .contains(
            "# TYPE lakeops_runs_total counter", "# TYPE lakeops_run_duration_seconds histogram");

    HttpResponse<String> health =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(lake.server.url() + "/health")).build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(health.statusCode()).isEqualTo(200);
    assertThat(health.body()).isEqualTo("ok\n");

    HttpResponse<String> post =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(lake.server.url() + "/api/tables"))
                .POST(HttpRequest.BodyPublishers.ofString("{}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(post.statusCode()).isEqualTo(405);
    assertThat(post.body()).isEqualTo("Method POST not allowed: this server is read-only\n");
  }

  private static Map<String, Double> orderedOf(Object... keysAndValues) {
    Map<String, Double> map = new LinkedHashMap<>();
    for (int index = 0; index < keysAndValues.length; index += 2) {
      map.put((String) keysAndValues[index], (Double) keysAndValues[index + 1]);
    }
    return map;
  }

  private static Map<String, MetricFamily> scrape() throws Exception {
    HttpResponse<byte[]> response =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(lake.server.url() + "/metrics"))
                .header("Accept", PROTOBUF)
                .build(),
            HttpResponse.BodyHandlers.ofByteArray());
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("Content-Type").orElseThrow())
        .startsWith("application/vnd.google.protobuf");
    Map<String, MetricFamily> families = new LinkedHashMap<>();
    try (InputStream in = new ByteArrayInputStream(response.body())) {
      MetricFamily family;
      while ((family = MetricFamily.parseDelimitedFrom(in)) != null) {
        families.put(family.getName(), family);
      }
    }
    return families;
  }

  private static Metric metric(MetricFamily family, Map<String, String> labels) {
    return family.getMetricList().stream()
        .filter(
            metric ->
                metric.getLabelList().stream()
                    .collect(Collectors.toMap(LabelPair::getName, LabelPair::getValue))
                    .equals(labels))
        .findFirst()
        .orElseThrow(
            () ->
                new AssertionError(
                    "No " + family.getName() + " with labels " + labels + " in " + family));
  }

  private static double gauge(
      Map<String, MetricFamily> families, String name, Map<String, String> labels) {
    return metric(families.get(name), labels).getGauge().getValue();
  }

  private static double counter(
      Map<String, MetricFamily> families, String name, Map<String, String> labels) {
    return metric(families.get(name), labels).getCounter().getValue();
  }
}
