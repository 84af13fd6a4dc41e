package dev.lakeops.cli.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lakeops.control.MaintenanceDaemon;
import dev.lakeops.control.ServeSettings;
import dev.lakeops.ledger.JdbcRunLedger;
import dev.lakeops.ledger.RunQuery;
import dev.lakeops.policy.PolicyFile;
import dev.lakeops.policy.PolicyResolver;
import dev.lakeops.telemetry.store.StoreLocation;
import dev.lakeops.testing.CommandLineRun;
import dev.lakeops.testing.Conditions;
import dev.lakeops.testing.SimpleTables;
import dev.lakeops.web.ServeObservability;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Table;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The daemon with its dashboard, end to end: a real fragmented table compacted by {@code serve},
 * then the server's metrics, JSON API and {@code lakeops runs} show the run with the planner's
 * prediction next to what happened.
 */
class ServeDashboardTest {
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final String POLICY =
      "catalog:\n  compact.min-small-files: 8\n  poll-interval: 1s\n";

  @TempDir Path warehouse;
  @TempDir Path state;

  @Test
  void serveCompactsAndTheDashboardShowsItWithPredictions() throws Exception {
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
    Table table = SimpleTables.create(catalog, "clicks", 2, Map.of());
    for (int file = 0; file < 12; file++) {
      SimpleTables.append(table, 0, file * 100L, 100);
    }
    String store = "sqlite:" + state.resolve("lakeops.db");
    AtomicBoolean working = new AtomicBoolean(true);
    try (JdbcRunLedger ledger = JdbcRunLedger.open(StoreLocation.parse(store), Clock.systemUTC())) {
      ServeSettings settings =
          ServeSettings.of(
                  catalog,
                  "lakeops",
                  new PolicyResolver(PolicyFile.parse(POLICY, "policy.yaml")),
                  ledger)
              .withDiscoveryInterval(Duration.ofSeconds(1))
              .withLog(new PrintStream(OutputStream.nullOutputStream()));
      try (ServeObservability observability =
          ServeObservability.start(
              store,
              catalog,
              "lakeops",
              settings.policies(),
              ledger,
              Optional.of(new InetSocketAddress("127.0.0.1", 0)),
              working::get,
              Clock.systemUTC())) {
        MaintenanceDaemon daemon =
            new MaintenanceDaemon(settings, observability.observer(), observability.advisor());
        Thread thread = new Thread(daemon::run, "serve-under-test");
        thread.start();
        String url = observability.url().orElseThrow();
        try {
          awaitCompaction(ledger);
          assertThat(get(url + "/health").statusCode()).isEqualTo(200);
          String metrics = get(url + "/metrics").body();
          assertThat(metrics)
              .contains(
                  "lakeops_runs_total{host=\"serve\",operation=\"compact\",status=\"succeeded\"} 1.0")
              .contains("lakeops_memory_budget_bytes ");

          JsonNode runs =
              new ObjectMapper()
                  .readTree(get(url + "/api/runs?table=db.clicks").body())
                  .get("runs");
          JsonNode compaction = null;
          for (JsonNode run : runs) {
            if (run.get("operation").asText().equals("compact")) {
              compaction = run;
            }
          }
          assertThat(compaction).as("a compact run in %s", runs).isNotNull();
          assertThat(compaction.get("status").asText()).isEqualTo("succeeded");
          assertThat(compaction.get("input_files").asLong()).isEqualTo(12);
          assertThat(compaction.get("predicted_seconds").isNumber()).isTrue();
          assertThat(compaction.get("predicted_peak_memory_bytes").asLong()).isPositive();
        } finally {
          daemon.stop();
          working.set(false);
          thread.join(TimeUnit.SECONDS.toMillis(60));
        }
        assertThat(get(url + "/health").statusCode()).isEqualTo(503);
      }
    }

    CommandLineRun listed =
        CommandLineRun.of("runs", "--warehouse", warehouse.toString(), "--store", store);
    assertThat(listed.exitCode()).as(listed.stderr()).isZero();
    assertThat(listed.stdout().lines().findFirst().orElseThrow())
        .contains("seconds", "pred s", "peak mem", "pred mem");
    String compactLine =
        listed
            .stdout()
            .lines()
            .filter(line -> line.contains(" compact "))
            .findFirst()
            .orElseThrow();
    assertThat(compactLine).doesNotContain(" - ");
  }

  private static void awaitCompaction(JdbcRunLedger ledger) {
    Conditions.await(
        "serve to compact db.clicks",
        Duration.ofSeconds(60),
        () ->
            ledger.list(RunQuery.all().withTable("db.clicks")).stream()
                .anyMatch(
                    run ->
                        run.operation().equals("compact")
                            && run.status().label().equals("succeeded")));
  }

  private static HttpResponse<String> get(String url) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
  }
}
