package dev.lakeops.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lakeops.observe.LakeMetrics;
import dev.lakeops.observe.LiveLakeState;
import dev.lakeops.observe.TableInspector;
import dev.lakeops.testing.CommandLineRun;
import dev.lakeops.testing.SimpleTables;
import dev.lakeops.web.DashboardData;
import dev.lakeops.web.DashboardServer;
import dev.lakeops.web.RunPredictions;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Table;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code serve --once}, {@code status} and their errors through the command line. */
class ServeCommandTest {
  @TempDir Path warehouse;
  @TempDir Path work;

  @Test
  void serveOnceThenStatusShowsHealthLastRunAndWhatIsNext() throws Exception {
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
    Table fragmented = SimpleTables.create(catalog, "fragmented", 2, Map.of());
    for (int file = 0; file < 14; file++) {
      SimpleTables.append(fragmented, 0, file * 100L, 20);
    }
    Table small = SimpleTables.create(catalog, "small", 2, Map.of());
    SimpleTables.append(small, 0, 0, 20);

    CommandLineRun before =
        CommandLineRun.of("status", "--warehouse", warehouse.toString(), "--json");
    assertThat(before.exitCode()).as(before.stderr()).isZero();
    JsonNode fragmentedBefore = table(before, "db.fragmented");
    assertThat(fragmentedBefore.get("health_score").asInt()).isLessThan(90);
    assertThat(fragmentedBefore.get("worst_part").asText()).isEqualTo("small-files");
    assertThat(fragmentedBefore.get("due").get(0).get("operation").asText()).isEqualTo("compact");
    assertThat(fragmentedBefore.get("due").get(0).get("reason").asText())
        .isEqualTo("part=0: 14 small files >= 12");
    assertThat(fragmentedBefore.get("last_run").isNull()).isTrue();

    CommandLineRun serve =
        CommandLineRun.of("serve", "--warehouse", warehouse.toString(), "--once");
    assertThat(serve.exitCode()).as(serve.stderr()).isZero();
    assertThat(serve.stderr())
        .contains("db.fragmented compact succeeded")
        .contains("lakeops serve: stopped");

    CommandLineRun after =
        CommandLineRun.of("status", "--warehouse", warehouse.toString(), "--json");
    JsonNode fragmentedAfter = table(after, "db.fragmented");
    assertThat(fragmentedAfter.get("health_score").asInt()).isEqualTo(100);
    assertThat(fragmentedAfter.get("due")).isEmpty();
    assertThat(fragmentedAfter.get("held").get(0).get("reason").asText())
        .startsWith("orphans.interval 1d: last cleanup");
    assertThat(fragmentedAfter.get("last_run").get("host").asText()).isEqualTo("serve");
    assertThat(table(after, "db.small").get("health_score").asInt()).isEqualTo(100);

    CommandLineRun human = CommandLineRun.of("status", "--warehouse", warehouse.toString());
    assertThat(human.stdout())
        .contains("db.fragmented: health 100 (worst: ")
        .contains("  last run: ")
        .contains("  held: remove-orphan-files: orphans.interval 1d");
  }

  /**
   * {@code status} shows the operation chosen for a table's delete files and why, under the names
   * and fields it always had; {@code serve} runs it and the rows stay as they were.
   */
  @Test
  void statusShowsTheDeleteFileChoiceAndServeRunsIt() throws Exception {
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
    Table cdc =
        SimpleTables.create(
            catalog,
            "cdc",
            2,
            Map.of(org.apache.iceberg.TableProperties.WRITE_TARGET_FILE_SIZE_BYTES, "4096"));
    for (int file = 0; file < 10; file++) {
      org.apache.iceberg.DataFile data = SimpleTables.append(cdc, 0, file * 2_000L, 2_000);
      cdc.newRowDelta()
          .addDeletes(dev.lakeops.testing.TableFiles.writePositionDeletes(cdc, data, 5))
          .commit();
    }
    dev.lakeops.verify.RowFingerprint rows = dev.lakeops.verify.RowFingerprint.of(cdc);

    CommandLineRun before =
        CommandLineRun.of("status", "--warehouse", warehouse.toString(), "--json");
    assertThat(before.exitCode()).as(before.stderr()).isZero();
    JsonNode due = table(before, "db.cdc").get("due").get(0);
    assertThat(due.get("operation").asText()).isEqualTo("rewrite-position-deletes");
    assertThat(due.get("reason").asText())
        .startsWith(
            "part=0: 10 delete files >= 10; rewrite-position-deletes: rewriting the delete files"
                + " removes 9 per ");
    assertThat(table(before, "db.cdc").get("worst_part").asText()).isEqualTo("delete-files");
    assertThat(CommandLineRun.of("status", "--warehouse", warehouse.toString()).stdout())
        .contains("  due: rewrite-position-deletes: part=0: 10 delete files >= 10; ");

    CommandLineRun serve =
        CommandLineRun.of("serve", "--warehouse", warehouse.toString(), "--once");
    assertThat(serve.exitCode()).as(serve.stderr()).isZero();
    assertThat(serve.stderr()).contains("db.cdc rewrite-position-deletes succeeded");

    JsonNode after =
        table(CommandLineRun.of("status", "--warehouse", warehouse.toString(), "--json"), "db.cdc");
    assertThat(after.get("health_score").asInt()).isEqualTo(100);
    assertThat(after.get("due")).isEmpty();
    cdc.refresh();
    assertThat(dev.lakeops.verify.RowFingerprint.of(cdc)).isEqualTo(rows);
  }

  @Test
  void aBadPolicyFileStopsServeBeforeItStartsWithOneLine() throws Exception {
    Path policy = work.resolve("policy.yaml");
    Files.writeString(policy, "catalog:\n  compact.strategy: fast\n");
    CommandLineRun serve =
        CommandLineRun.of(
            "serve", "--warehouse", warehouse.toString(), "--policy", policy.toString());
    assertThat(serve.exitCode()).isEqualTo(1);
    assertThat(serve.stderr().strip())
        .isEqualTo(
            "lakeops: error: "
                + policy
                + ": compact.strategy in catalog: 'fast' is not one of binpack|sort|zorder|auto");
    assertThat(warehouse.resolve(".lakeops")).doesNotExist();
  }

  @Test
  void healthEndpointAnswersWhileRunning() throws Exception {
    boolean[] running = {true};
    Clock clock = Clock.systemUTC();
    try (DashboardServer endpoint =
        DashboardServer.start(
            DashboardServer.parseAddress("127.0.0.1:0"),
            new DashboardData(
                new LiveLakeState(clock), TableInspector.none(), RunPredictions.NONE, clock),
            new LakeMetrics(),
            () -> running[0])) {
      HttpClient client = HttpClient.newHttpClient();
      HttpRequest request = HttpRequest.newBuilder(URI.create(endpoint.url() + "/health")).build();
      HttpResponse<String> up = client.send(request, HttpResponse.BodyHandlers.ofString());
      running[0] = false;
      HttpResponse<String> stopping = client.send(request, HttpResponse.BodyHandlers.ofString());
      assertThat(up.statusCode()).isEqualTo(200);
      assertThat(up.body()).isEqualTo("ok\n");
      assertThat(stopping.statusCode()).isEqualTo(503);
    }
  }

  private static JsonNode table(CommandLineRun run, String name) throws Exception {
    for (JsonNode table : new ObjectMapper().readTree(run.stdout()).get("tables")) {
      if (table.get("table").asText().equals(name)) {
        return table;
      }
    }
    throw new AssertionError(name + " not in " + run.stdout());
  }
}
