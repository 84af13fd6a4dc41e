package dev.lakeops.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lakeops.demo.DemoTableGenerator;
import dev.lakeops.testing.CommandLineRun;
import dev.lakeops.verify.RowFingerprint;
import dev.lakeops.verify.WriterFault;
import dev.lakeops.verify.WriterFaults;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompactCommandTest {
  @TempDir Path warehouse;
  private Table table;

  @BeforeEach
  void createTable() {
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
    table =
        new DemoTableGenerator(catalog)
            .create(TableIdentifier.of("db", "events"), 2, 2, 10, 100, 5);
  }

  @Test
  void jsonOutputCarriesTheContractFields() throws Exception {
    RowFingerprint before = RowFingerprint.of(table);

    CommandLineRun run =
        CommandLineRun.of(
            "compact",
            "db.events",
            "--warehouse",
            warehouse.toString(),
            "--json",
            "--memory",
            "64MB");

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    JsonNode json = new ObjectMapper().readTree(run.stdout());
    assertThat(json.fieldNames())
        .toIterable()
        .contains(
            "table",
            "strategy",
            "input_files",
            "output_files",
            "input_bytes",
            "output_bytes",
            "removed_delete_files",
            "seconds",
            "peak_memory_bytes",
            "snapshot_id",
            "copied_bytes",
            "decoded_bytes",
            "fallback_reasons",
            "verification",
            "verified_rows");
    assertThat(json.get("verification").asText()).isEqualTo("counts");
    assertThat(json.get("verified_rows").asLong()).isEqualTo(before.rowCount());
    assertThat(json.get("table").asText()).endsWith("db.events");
    assertThat(json.get("copied_bytes").asLong()).isEqualTo(json.get("input_bytes").asLong());
    assertThat(json.get("fallback_reasons").isObject()).isTrue();
    assertThat(json.get("fallback_reasons").size()).isZero();
    assertThat(json.get("strategy").asText()).isEqualTo("binpack");
    assertThat(json.get("input_files").asInt()).isEqualTo(10);
    assertThat(json.get("output_files").asInt()).isEqualTo(2);
    assertThat(json.get("peak_memory_bytes").asLong()).isPositive().isLessThanOrEqualTo(64L << 20);
    table.refresh();
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
  }

  @Test
  void summaryNamesWhyGroupsWereDecoded() throws Exception {
    RowFingerprint before = RowFingerprint.of(table);

    CommandLineRun run =
        CommandLineRun.of(
            "compact",
            "db.events",
            "--warehouse",
            warehouse.toString(),
            "--option",
            "decode-free-merge=false");

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    assertThat(run.stdout())
        .contains("Decoded 2 groups instead of merging without decoding: 2 decode-free-merge off");
    table.refresh();
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
  }

  @Test
  void dryRunPrintsThePlanAndChangesNothing() {
    long snapshot = table.currentSnapshot().snapshotId();

    CommandLineRun run =
        CommandLineRun.of("compact", "db.events", "--warehouse", warehouse.toString(), "--dry-run");

    assertThat(run.exitCode()).isZero();
    assertThat(run.stdout())
        .contains("Dry run: would rewrite 10 files")
        .contains("in 2 file groups");
    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(snapshot);
  }

  @Test
  void unknownTableSuggestsCloseNames() {
    CommandLineRun run =
        CommandLineRun.of("compact", "db.event", "--warehouse", warehouse.toString());

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.stderr().strip())
        .isEqualTo(
            "lakeops: error: Table 'db.event' not found in catalog 'lakeops'; did you mean db.events?");
  }

  @Test
  void unknownOptionListsTheValidOnes() {
    CommandLineRun run =
        CommandLineRun.of(
            "compact",
            "db.events",
            "--warehouse",
            warehouse.toString(),
            "--option",
            "target-size=5");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.stderr())
        .startsWith("lakeops: error: Unknown rewrite option 'target-size'; valid options: ")
        .contains("min-input-files");
    assertThat(run.stderr().strip().lines()).hasSize(1);
  }

  @Test
  void checksumVerificationOfASortIsReported() throws Exception {
    RowFingerprint before = RowFingerprint.of(table);

    CommandLineRun run =
        CommandLineRun.of(
            "compact",
            "db.events",
            "--warehouse",
            warehouse.toString(),
            "--strategy",
            "sort",
            "--sort-order",
            "event_id",
            "--verify",
            "checksum",
            "--json");

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    JsonNode json = new ObjectMapper().readTree(run.stdout());
    assertThat(json.get("verification").asText()).isEqualTo("checksum");
    assertThat(json.get("verified_rows").asLong()).isEqualTo(before.rowCount());
    assertThat(json.get("verification_failures").asInt()).isZero();
    table.refresh();
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
  }

  @Test
  void badVerifyModeIsRefusedInOneLineAndChangesNothing() {
    String metadataBefore = currentMetadata();

    CommandLineRun run =
        CommandLineRun.of(
            "compact", "db.events", "--warehouse", warehouse.toString(), "--verify", "md5");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.stderr().strip())
        .isEqualTo("lakeops: error: Invalid verify value 'md5': use one of counts, checksum, off");
    table.refresh();
    assertThat(currentMetadata()).isEqualTo(metadataBefore);
  }

  private String currentMetadata() {
    return ((org.apache.iceberg.HasTableOperations) table)
        .operations()
        .refresh()
        .metadataFileLocation();
  }

  @Test
  void aGroupThatFailsVerificationIsRefusedInOneLineAndCommitsNothing() {
    RowFingerprint before = RowFingerprint.of(table);
    long snapshot = table.currentSnapshot().snapshotId();
    WriterFaults.install(WriterFault.DROPPED_ROW);
    CommandLineRun run;
    try {
      run = CommandLineRun.of("compact", "db.events", "--warehouse", warehouse.toString());
    } finally {
      WriterFaults.reset();
    }

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.stderr().strip().lines()).hasSize(1);
    assertThat(run.stderr())
        .startsWith("lakeops: error: verification: group ")
        .contains("rows, expected 500 (500 read, 0 deleted)");
    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(snapshot);
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
  }

  @Test
  void badWhereFilterNamesTheProblem() {
    CommandLineRun run =
        CommandLineRun.of(
            "compact", "db.events", "--warehouse", warehouse.toString(), "--where", "day >>= 3");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.stderr()).startsWith("lakeops: error: Invalid where filter \"day >>= 3\"");
  }

  @Test
  void unreachableCatalogIsOneLine() throws Exception {
    Path notADatabase =
        Files.createDirectories(warehouse.resolve("no-such-dir").resolve("catalog.db"));

    CommandLineRun run =
        CommandLineRun.of(
            "compact",
            "db.events",
            "-C",
            "type=jdbc",
            "-C",
            "uri=jdbc:sqlite:" + notADatabase,
            "-C",
            "warehouse=" + warehouse);

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.stderr())
        .startsWith("lakeops: error: Cannot reach catalog 'lakeops' (jdbc at jdbc:sqlite:");
    assertThat(run.stderr().strip().lines()).hasSize(1);
  }

  @Test
  void missingCatalogTellsHowToGiveOne() {
    CommandLineRun run = CommandLineRun.of("compact", "db.events");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.stderr().strip())
        .isEqualTo(
            "lakeops: error: No catalog given: use --warehouse DIR for a local warehouse, or -C type=rest -C uri=... "
                + "(or --catalog-config FILE)");
  }
}
