package dev.lakeops.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lakeops.catalog.CatalogConnector;
import dev.lakeops.catalog.CatalogSettings;
import dev.lakeops.demo.DemoTableGenerator;
import dev.lakeops.ledger.JdbcRunLedger;
import dev.lakeops.ledger.ObjectRequests;
import dev.lakeops.ledger.RunCost;
import dev.lakeops.ledger.RunQuery;
import dev.lakeops.ledger.RunRecord;
import dev.lakeops.testing.CommandLineRun;
import dev.lakeops.testing.S3TestServer;
import dev.lakeops.verify.RowFingerprint;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What runs on a table in an S3 API server cost, as the CLI's {@code --json} and the run ledger
 * report it: the server answers every request after 20 ms, as a cloud object store does.
 */
class S3RunCostTest {
  private static final TableIdentifier EVENTS = TableIdentifier.of("db", "events");

  @TempDir Path temp;
  private S3TestServer server;
  private Map<String, String> catalogProperties;
  private Catalog catalog;

  @BeforeEach
  void startObjectStore() throws Exception {
    server = S3TestServer.start(temp, "lake", Duration.ofMillis(20));
    catalogProperties = server.jdbcCatalogProperties(temp.resolve("catalog.db"));
    catalog = CatalogConnector.connect(new CatalogSettings("lake", catalogProperties));
  }

  @AfterEach
  void stopObjectStore() throws Exception {
    if (catalog instanceof java.io.Closeable closeable) {
      closeable.close();
    }
    server.close();
  }

  @Test
  void aCompactionReportsItsObjectRequestsBytesRequestsInFlightAndCpu() throws Exception {
    Table table = new DemoTableGenerator(catalog).create(EVENTS, 2, 2, 12, 300, 4);
    RowFingerprint before = RowFingerprint.of(table);
    String store = "sqlite:" + temp.resolve("ledger.db");

    Map<String, Long> callsBefore = server.requests().counts();
    JsonNode json = runJson("compact", "db.events", "--json", "--store", store);
    Map<String, Long> callsAfter = server.requests().counts();

    assertThat(json.get("input_files").asInt()).isEqualTo(12);
    JsonNode requests = json.get("object_requests");
    List<String> kinds = new ArrayList<>();
    requests.fieldNames().forEachRemaining(kinds::add);
    assertThat(kinds).containsExactly("GET", "PUT", "HEAD", "LIST", "DELETE");
    assertThat(requests.get("GET").asLong()).isGreaterThanOrEqualTo(12);
    assertThat(requests.get("PUT").asLong()).isGreaterThanOrEqualTo(1);
    assertThat(json.get("object_bytes_read").asLong())
        .isGreaterThanOrEqualTo(json.get("input_bytes").asLong());
    assertThat(json.get("object_bytes_written").asLong())
        .isGreaterThanOrEqualTo(json.get("output_bytes").asLong());
    assertThat(json.get("requests_in_flight_peak").asLong()).isGreaterThanOrEqualTo(1);
    assertThat(json.get("requests_in_flight_mean").asDouble()).isPositive();
    assertThat(json.get("cpu_seconds").asDouble()).isPositive();
    // the server's own count of what it served during the command: the same PUTs and HEADs, and
    // the same GETs plus the table metadata the command reads before the run starts
    assertThat(served(callsBefore, callsAfter, "PUT")).isEqualTo(requests.get("PUT").asLong());
    assertThat(served(callsBefore, callsAfter, "HEAD")).isEqualTo(requests.get("HEAD").asLong());
    assertThat(served(callsBefore, callsAfter, "GET"))
        .isBetween(requests.get("GET").asLong(), requests.get("GET").asLong() + 1);
    assertThat(RowFingerprint.of(catalog.loadTable(EVENTS))).isEqualTo(before);

    try (JdbcRunLedger ledger = JdbcRunLedger.open(store)) {
      RunRecord run = ledger.list(RunQuery.all()).get(0);
      RunCost cost = run.figures().cost();
      assertThat(cost.requests())
          .isEqualTo(
              new ObjectRequests(
                  requests.get("GET").asLong(),
                  requests.get("PUT").asLong(),
                  requests.get("HEAD").asLong(),
                  requests.get("LIST").asLong(),
                  requests.get("DELETE").asLong(),
                  0));
      assertThat(cost.bytesRead()).isEqualTo(json.get("object_bytes_read").asLong());
      assertThat(cost.bytesWritten()).isEqualTo(json.get("object_bytes_written").asLong());
      assertThat(cost.cpuSeconds()).isEqualTo(json.get("cpu_seconds").asDouble());
    }
    JsonNode listed = runJson("runs", "--json", "--store", store).get("runs").get(0);
    assertThat(listed.get("object_requests")).isEqualTo(requests);
    assertThat(listed.get("object_bytes_read")).isEqualTo(json.get("object_bytes_read"));
    assertThat(listed.get("requests_in_flight_peak"))
        .isEqualTo(json.get("requests_in_flight_peak"));
    assertThat(listed.get("requests_in_flight_mean").asDouble())
        .isEqualTo(json.get("requests_in_flight_mean").asDouble());
  }

  @Test
  void maintenanceCommandsReportWhatTheyCostToo() throws Exception {
    new DemoTableGenerator(catalog).create(EVENTS, 2, 2, 4, 100, 2);
    String store = "sqlite:" + temp.resolve("ledger.db");

    JsonNode orphans =
        runJson("remove-orphan-files", "db.events", "--dry-run", "--json", "--store", store);

    assertThat(orphans.get("object_requests").get("LIST").asLong()).isGreaterThanOrEqualTo(1);
    assertThat(orphans.get("cpu_seconds").asDouble()).isPositive();
    try (JdbcRunLedger ledger = JdbcRunLedger.open(store)) {
      RunCost recorded = ledger.list(RunQuery.all()).get(0).figures().cost();
      assertThat(recorded.requests().list())
          .isEqualTo(orphans.get("object_requests").get("LIST").asLong());
      assertThat(recorded.cpuSeconds()).isEqualTo(orphans.get("cpu_seconds").asDouble());
    }
  }

  @Test
  void aCompactionOfALocalTableMakesNoObjectRequestsButReportsItsCpu() throws Exception {
    Path warehouse = temp.resolve("warehouse");
    Catalog local =
        CatalogConnector.connect(
            new CatalogSettings(
                "local", Map.of("type", "hadoop", "warehouse", warehouse.toString())));
    new DemoTableGenerator(local).create(EVENTS, 2, 2, 12, 300, 4);

    JsonNode json =
        runJson(
            "compact",
            "db.events",
            "--warehouse",
            warehouse.toString(),
            "--json",
            "--store",
            "none");

    assertThat(json.get("input_files").asInt()).isEqualTo(12);
    assertThat(json.get("object_requests").toString())
        .isEqualTo("{\"GET\":0,\"PUT\":0,\"HEAD\":0,\"LIST\":0,\"DELETE\":0}");
    assertThat(json.get("object_bytes_read").asLong()).isZero();
    assertThat(json.get("object_bytes_written").asLong()).isZero();
    assertThat(json.get("requests_in_flight_peak").asLong()).isZero();
    assertThat(json.get("cpu_seconds").asDouble()).isPositive();
  }

  private static long served(Map<String, Long> before, Map<String, Long> after, String call) {
    return after.getOrDefault(call, 0L) - before.getOrDefault(call, 0L);
  }

  private JsonNode runJson(String... command) throws Exception {
    List<String> arguments = new ArrayList<>(List.of(command));
    if (!arguments.contains("--warehouse")) {
      arguments.addAll(List.of("-C", "name=lake"));
      catalogProperties.forEach((key, value) -> arguments.addAll(List.of("-C", key + "=" + value)));
    }
    CommandLineRun run = CommandLineRun.of(arguments.toArray(String[]::new));
    assertThat(run.exitCode()).as(run.stderr()).isZero();
    return new ObjectMapper().readTree(run.stdout());
  }
}
