package dev.lakeops.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lakeops.demo.DemoTableGenerator;
import dev.lakeops.testing.CommandLineRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The maintenance commands record their runs in the ledger, and {@code runs} lists them. */
class RunsCommandTest {
  @TempDir Path warehouse;
  @TempDir Path elsewhere;

  @BeforeEach
  void createTable() {
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
    new DemoTableGenerator(catalog).create(TableIdentifier.of("db", "events"), 2, 2, 10, 100, 5);
  }

  @Test
  void compactRecordsItsRunInTheWarehouseStoreByDefault() throws Exception {
    CommandLineRun compact =
        CommandLineRun.of("compact", "db.events", "--warehouse", warehouse.toString(), "--json");
    assertThat(compact.exitCode()).as(compact.stderr()).isZero();
    JsonNode result = new ObjectMapper().readTree(compact.stdout());

    assertThat(warehouse.resolve(".lakeops/lakeops.db")).exists();
    JsonNode runs = runs("--warehouse", warehouse.toString());
    assertThat(runs).hasSize(1);
    JsonNode run = runs.get(0);
    assertThat(run.get("catalog").asText()).isEqualTo("lakeops");
    assertThat(run.get("table").asText()).isEqualTo("db.events");
    assertThat(run.get("operation").asText()).isEqualTo("compact");
    assertThat(run.get("trigger_reason").asText()).isEqualTo("requested");
    assertThat(run.get("host").asText()).isEqualTo("cli");
    assertThat(run.get("status").asText()).isEqualTo("succeeded");
    assertThat(run.get("dry_run").asBoolean()).isFalse();
    assertThat(run.get("input_files").asLong())
        .isEqualTo(result.get("input_files").asLong())
        .isPositive();
    assertThat(run.get("output_files").asLong()).isEqualTo(result.get("output_files").asLong());
    assertThat(run.get("input_bytes").asLong()).isEqualTo(result.get("input_bytes").asLong());
    assertThat(run.get("output_bytes").asLong()).isEqualTo(result.get("output_bytes").asLong());
    assertThat(run.get("peak_memory_bytes").asLong())
        .isEqualTo(result.get("peak_memory_bytes").asLong());
    assertThat(run.get("snapshot_id").asLong()).isEqualTo(result.get("snapshot_id").asLong());
    assertThat(run.get("recompacted_bytes").asLong()).isZero();
    assertThat(run.get("finished").isNull()).isFalse();

    CommandLineRun again =
        CommandLineRun.of(
            "compact",
            "db.events",
            "--warehouse",
            warehouse.toString(),
            "--option",
            "rewrite-all=true",
            "--option",
            "min-input-files=1",
            "--json");
    assertThat(again.exitCode()).as(again.stderr()).isZero();
    JsonNode second = runs("--warehouse", warehouse.toString()).get(0);
    assertThat(second.get("recompacted_bytes").asLong())
        .isEqualTo(second.get("input_bytes").asLong())
        .isPositive();
  }

  @Test
  void maintainRecordsOneRunPerStepAndFailuresWithTheirError() throws Exception {
    String store = "sqlite:" + elsewhere.resolve("ledger.db");
    CommandLineRun maintain =
        CommandLineRun.of(
            "maintain",
            "db.events",
            "--warehouse",
            warehouse.toString(),
            "--store",
            store,
            "--dry-run");
    assertThat(maintain.exitCode()).as(maintain.stderr()).isZero();
    CommandLineRun failing =
        CommandLineRun.of(
            "expire-snapshots",
            "db.events",
            "--warehouse",
            warehouse.toString(),
            "--store",
            store,
            "--snapshot-id",
            "12345");
    assertThat(failing.exitCode()).isEqualTo(1);

    assertThat(warehouse.resolve(".lakeops")).doesNotExist();
    JsonNode runs =
        runs("--warehouse", warehouse.toString(), "--store", store, "--table", "db.events");
    List<String> rows = new ArrayList<>();
    runs.forEach(
        run ->
            rows.add(
                run.get("operation").asText()
                    + " "
                    + run.get("status").asText()
                    + " "
                    + run.get("dry_run").asBoolean()));
    assertThat(rows)
        .containsExactly(
            "expire-snapshots failed false",
            "rewrite-manifests succeeded true",
            "compact succeeded true",
            "remove-orphan-files succeeded true",
            "expire-snapshots succeeded true");
    assertThat(runs.get(0).get("error").asText())
        .isEqualTo(failing.stderr().strip().substring("lakeops: error: ".length()));
    assertThat(runs("--warehouse", warehouse.toString(), "--store", store, "--table", "db.other"))
        .isEmpty();
    assertThat(runs("--warehouse", warehouse.toString(), "--store", store, "--since", "1h"))
        .hasSize(5);

    CommandLineRun human = CommandLineRun.of("runs", "--store", store);
    assertThat(human.exitCode()).as(human.stderr()).isZero();
    assertThat(human.stdout().lines().toList()).hasSize(6);
    assertThat(human.stdout()).contains("db.events").contains("compact (dry)").contains("failed");
  }

  @Test
  void storeNoneRecordsNothingAndABadStoreIsOneLine() {
    CommandLineRun none =
        CommandLineRun.of(
            "rewrite-manifests",
            "db.events",
            "--warehouse",
            warehouse.toString(),
            "--store",
            "none");
    assertThat(none.exitCode()).as(none.stderr()).isZero();
    assertThat(warehouse.resolve(".lakeops")).doesNotExist();

    CommandLineRun bad = CommandLineRun.of("runs", "--store", "mysql://x");
    assertThat(bad.exitCode()).isEqualTo(1);
    assertThat(bad.stderr().strip())
        .isEqualTo(
            "lakeops: error: Unsupported telemetry store 'mysql://x': use sqlite:<path> (default "
                + "sqlite:~/.lakeops/telemetry.db) or jdbc:postgresql://<host>:<port>/<database>");
    assertThat(Files.exists(warehouse.resolve(".lakeops"))).isFalse();
  }

  private static JsonNode runs(String... args) throws Exception {
    String[] all = new String[args.length + 2];
    all[0] = "runs";
    all[1] = "--json";
    System.arraycopy(args, 0, all, 2, args.length);
    CommandLineRun run = CommandLineRun.of(all);
    assertThat(run.exitCode()).as(run.stderr()).isZero();
    return new ObjectMapper().readTree(run.stdout()).get("runs");
  }
}
