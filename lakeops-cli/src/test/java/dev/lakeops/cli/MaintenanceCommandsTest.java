package dev.lakeops.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lakeops.demo.DemoTableGenerator;
import dev.lakeops.maintain.TableFiles;
import dev.lakeops.verify.RowFingerprint;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The four maintenance commands through {@link Main#run}, as a user types them. */
class MaintenanceCommandsTest {
  @TempDir Path warehouse;
  private Table table;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private PrintStream originalOut;
  private PrintStream originalErr;

  @BeforeEach
  void createTableAndCaptureOutput() {
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
    table =
        new DemoTableGenerator(catalog).create(TableIdentifier.of("db", "events"), 2, 2, 8, 20, 2);
    originalOut = System.out;
    originalErr = System.err;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @AfterEach
  void restoreOutput() {
    System.setOut(originalOut);
    System.setErr(originalErr);
  }

  private int run(String... args) {
    String[] withWarehouse = new String[args.length + 2];
    System.arraycopy(args, 0, withWarehouse, 0, args.length);
    withWarehouse[args.length] = "--warehouse";
    withWarehouse[args.length + 1] = warehouse.toString();
    return Main.run(withWarehouse);
  }

  private JsonNode json() throws Exception {
    return new ObjectMapper().readTree(out.toString(StandardCharsets.UTF_8));
  }

  private String error() {
    return err.toString(StandardCharsets.UTF_8).trim();
  }

  @Test
  void expireSnapshotsJson() throws Exception {
    int code =
        run("expire-snapshots", "db.events", "--older-than", "0s", "--retain-last", "2", "--json");

    assertThat(code).isZero();
    JsonNode report = json();
    assertThat(report.get("expired_snapshot_ids")).hasSize(2);
    assertThat(report.get("retained_snapshots").asInt()).isEqualTo(2);
    assertThat(report.get("dry_run").asBoolean()).isFalse();
  }

  @Test
  void expireSnapshotsDryRunChangesNothing() {
    Set<Path> files = TableFiles.onDisk(table);

    int code =
        run("expire-snapshots", "db.events", "--older-than", "2999-01-01T00:00:00Z", "--dry-run");

    assertThat(code).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8))
        .startsWith("Dry run, nothing changed. lakeops.db.events: 3");
    assertThat(TableFiles.onDisk(table)).isEqualTo(files);
  }

  @Test
  void unknownSnapshotIdIsOneLineError() {
    int code = run("expire-snapshots", "db.events", "--snapshot-id", "42");

    assertThat(code).isEqualTo(1);
    assertThat(error())
        .startsWith("lakeops: error: Snapshot 42 does not exist in table lakeops.db.events")
        .doesNotContain("\n");
  }

  @Test
  void badOlderThanIsOneLineError() {
    int code = run("expire-snapshots", "db.events", "--older-than", "soon");

    assertThat(code).isEqualTo(1);
    assertThat(error())
        .isEqualTo(
            "lakeops: error: Invalid --older-than 'soon': use a duration such as 7d, 12h, 30m or a timestamp"
                + " such as 2026-01-31T00:00:00Z");
  }

  @Test
  void removeOrphanFilesBelowTheFloorNamesForce() {
    int code = run("remove-orphan-files", "db.events", "--older-than", "1h");

    assertThat(code).isEqualTo(1);
    assertThat(error())
        .isEqualTo(
            "lakeops: error: --older-than 1h is below the 3d safety floor: files of writes still in progress"
                + " could be deleted; use an older cutoff (the command line's --force goes below it)");
  }

  @Test
  void removeOrphanFilesJson() throws Exception {
    TableFiles.ageAll(table, Duration.ofDays(5));
    TableFiles.plant(TableFiles.locationOf(table).resolve("data/lost.parquet"), Duration.ofDays(5));

    int code =
        run("remove-orphan-files", "db.events", "--json", "--prefix-mismatch-mode", "ignore");

    assertThat(code).isZero();
    JsonNode report = json();
    assertThat(report.get("orphan_files")).hasSize(1);
    assertThat(report.get("deleted_files").asLong()).isEqualTo(1);
  }

  @Test
  void rewriteManifestsReportsBeforeAndAfter() throws Exception {
    int code = run("rewrite-manifests", "db.events", "--json");

    assertThat(code).isZero();
    JsonNode report = json();
    assertThat(report.get("manifests_before").asInt()).isEqualTo(4);
    assertThat(report.get("manifests_after").asInt()).isEqualTo(1);
  }

  @Test
  void rewriteManifestsUnknownSpec() {
    int code = run("rewrite-manifests", "db.events", "--spec-id", "3");

    assertThat(code).isEqualTo(1);
    assertThat(error())
        .isEqualTo(
            "lakeops: error: Partition spec 3 does not exist in table lakeops.db.events: use one of [0] in --spec-id");
  }

  @Test
  void maintainWithSkipsKeepsRows() throws Exception {
    table.updateProperties().set(TableProperties.MAX_SNAPSHOT_AGE_MS, "0").commit();
    RowFingerprint rows = RowFingerprint.of(table);

    int code = run("maintain", "db.events", "--skip", "orphans", "--skip-manifests", "--json");

    assertThat(code).isZero();
    JsonNode report = json();
    assertThat(report.get("expire").get("expired_snapshot_ids")).hasSize(3);
    assertThat(report.get("orphans").isNull()).isTrue();
    // four files per partition: under binpack's default min-input-files of 5, so nothing to rewrite
    assertThat(report.get("compact").get("input_files").asInt()).isZero();
    assertThat(report.get("manifests").isNull()).isTrue();
    table.refresh();
    assertThat(RowFingerprint.of(table)).isEqualTo(rows);
  }

  @Test
  void maintainUnknownStep() {
    int code = run("maintain", "db.events", "--skip", "vacuum");

    assertThat(code).isEqualTo(1);
    assertThat(error())
        .isEqualTo(
            "lakeops: error: Invalid --skip: Unknown maintenance step 'vacuum': use one of expire, orphans, compact, manifests");
  }
}
