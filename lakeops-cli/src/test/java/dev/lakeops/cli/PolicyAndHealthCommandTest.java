package dev.lakeops.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lakeops.testing.CommandLineRun;
import dev.lakeops.testing.SimpleTables;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Table;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PolicyAndHealthCommandTest {
  @TempDir Path warehouse;
  @TempDir Path directory;
  private Table table;

  @BeforeEach
  void createTable() {
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
    table =
        SimpleTables.create(catalog, "events", 2, Map.of("lakeops.compact.min-small-files", "4"));
    for (int file = 0; file < 6; file++) {
      SimpleTables.append(table, 0, file * 10L, 10);
    }
  }

  @Test
  void policyShowsEveryValueAndItsSource() throws Exception {
    Path policy = directory.resolve("policy.yaml");
    Files.writeString(
        policy,
        "catalog:\n  compact.strategy: sort\nnamespaces:\n  db: {expire: {retain-last: 3}}\n");

    CommandLineRun run =
        CommandLineRun.of(
            "policy",
            "db.events",
            "--warehouse",
            warehouse.toString(),
            "--policy",
            policy.toString(),
            "--json");

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    JsonNode json = new ObjectMapper().readTree(run.stdout());
    assertThat(json.get("table").asText()).isEqualTo("db.events");
    assertThat(json.at("/policy/compact.strategy/value").asText()).isEqualTo("sort");
    assertThat(json.at("/policy/compact.strategy/source").asText()).isEqualTo("catalog");
    assertThat(json.at("/policy/expire.retain-last/source").asText()).isEqualTo("namespace:db");
    assertThat(json.at("/policy/compact.min-small-files/value").asText()).isEqualTo("4");
    assertThat(json.at("/policy/compact.min-small-files/source").asText())
        .isEqualTo("table-property:lakeops.compact.min-small-files");
    assertThat(json.at("/policy/orphans.interval/value").asText()).isEqualTo("1d");

    CommandLineRun human =
        CommandLineRun.of("policy", "db.events", "--warehouse", warehouse.toString());
    assertThat(human.stdout())
        .containsPattern(
            "compact\\.min-small-files\\s+4\\s+table-property:lakeops\\.compact\\.min-small-files");
  }

  @Test
  void policyShowsTheValuesThatPinWhatThePlannerLearns() throws Exception {
    Path policy = directory.resolve("pinned.yaml");
    Files.writeString(
        policy,
        "catalog:\n  compact.options.partial-progress.enabled: false\n"
            + "tables:\n  db.events:\n    compact.memory: 256MB\n"
            + "    compact.options: {max-concurrent-file-group-rewrites: 1, max-file-group-size-bytes: 536870912}\n");

    CommandLineRun run =
        CommandLineRun.of(
            "policy",
            "db.events",
            "--warehouse",
            warehouse.toString(),
            "--policy",
            policy.toString(),
            "--json");

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    JsonNode json = new ObjectMapper().readTree(run.stdout());
    assertThat(json.at("/policy/compact.memory/value").asText()).isEqualTo("256MB");
    assertThat(json.at("/policy/compact.memory/source").asText()).isEqualTo("table:db.events");
    assertThat(json.at("/policy/compact.options.max-concurrent-file-group-rewrites/value").asText())
        .isEqualTo("1");
    assertThat(
            json.at("/policy/compact.options.max-concurrent-file-group-rewrites/source").asText())
        .isEqualTo("table:db.events");
    assertThat(json.at("/policy/compact.options.max-file-group-size-bytes/value").asText())
        .isEqualTo("536870912");
    assertThat(json.at("/policy/compact.options.partial-progress.enabled/value").asText())
        .isEqualTo("false");
    assertThat(json.at("/policy/compact.options.partial-progress.enabled/source").asText())
        .isEqualTo("catalog");

    CommandLineRun defaults =
        CommandLineRun.of("policy", "db.events", "--warehouse", warehouse.toString());
    assertThat(defaults.stdout()).containsPattern("compact\\.memory\\s+none\\s+default");
  }

  @Test
  void badPolicyFileIsOneErrorLine() throws Exception {
    Path policy = directory.resolve("policy.yaml");
    Files.writeString(policy, "catalog:\n  compact.strategy: fast\n");

    CommandLineRun run =
        CommandLineRun.of(
            "policy",
            "db.events",
            "--warehouse",
            warehouse.toString(),
            "--policy",
            policy.toString());

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.stderr())
        .isEqualTo(
            "lakeops: error: "
                + policy
                + ": compact.strategy in catalog: 'fast' is not one of binpack|sort|zorder|auto"
                + System.lineSeparator());
  }

  @Test
  void healthShowsTheScoreAndItsPartsAndKeepsEarlierFields() throws Exception {
    CommandLineRun run =
        CommandLineRun.of(
            "health", "db.events", "--warehouse", warehouse.toString(), "--json", "--partitions");

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    JsonNode json = new ObjectMapper().readTree(run.stdout());
    assertThat(json.get("data_files").asLong()).isEqualTo(6);
    assertThat(json.get("small_data_files").asLong()).isEqualTo(6);
    assertThat(json.get("snapshots").asLong()).isEqualTo(6);
    assertThat(json.get("manifests").asLong()).isEqualTo(6);
    assertThat(json.get("score").asInt())
        .as("the table's own threshold of 4 small files applies")
        .isEqualTo(16);
    assertThat(json.get("worst_part").asText()).isEqualTo("small-files");
    assertThat(json.get("score_parts")).hasSize(4);
    assertThat(json.at("/partition_health/0/partition").asText()).isEqualTo("part=0");
    assertThat(json.get("last_rewrite").isNull()).isTrue();

    CommandLineRun human =
        CommandLineRun.of("health", "db.events", "--warehouse", warehouse.toString());
    assertThat(human.stdout())
        .contains("health score    16/100 (worst: small-files)")
        .contains("last rewrite    never");
  }
}
