package dev.lakeops.spark;

import static dev.lakeops.spark.LocalSpark.dataFileCount;
import static dev.lakeops.spark.LocalSpark.fingerprint;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.spark.LocalSpark.Fingerprint;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * {@link LakeOpsJob}'s maintenance commands ({@code expire_snapshots}, {@code remove_orphan_files},
 * {@code rewrite_manifests}, {@code maintain}) with the CLI's flags, in a real local session whose
 * catalog settings find the table.
 */
class LakeOpsJobMaintenanceTest extends SparkSessionPerClass {
  @Test
  void expiresSnapshotsWithTheCliFlags() {
    String table = createTable("job_expire", 3);
    spark.sql("INSERT OVERWRITE " + table + " SELECT id, data FROM " + table);
    Fingerprint before = fingerprint(spark, table);
    ByteArrayOutputStream out = new ByteArrayOutputStream();

    int dryRun =
        run(
            new ByteArrayOutputStream(),
            "expire_snapshots",
            table,
            "--older-than",
            "0s",
            "--retain-last",
            "1",
            "--dry-run");
    assertThat(dryRun).isZero();
    assertThat(snapshotCount(table)).isEqualTo(4);

    int exitCode = run(out, "expire_snapshots", table, "--older-than", "0s", "--retain-last", "1");

    assertThat(exitCode).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8))
        .contains(
            "deleted_data_files_count: 3\n",
            "expired_snapshots_count: 3\n",
            "retained_snapshots_count: 1\n");
    assertThat(snapshotCount(table)).isEqualTo(1);
    assertThat(fingerprint(spark, table)).isEqualTo(before);
  }

  @Test
  void removesOrphanFilesOlderThanTheCutoff() throws Exception {
    String table = createTable("job_orphans", 2);
    Path data = warehouse.resolve("db/job_orphans/data");
    Path old = Files.write(data.resolve("old-orphan.parquet"), new byte[] {1, 2, 3});
    Files.setLastModifiedTime(old, FileTime.from(Instant.now().minus(Duration.ofDays(10))));
    Path fresh = Files.write(data.resolve("fresh-orphan.parquet"), new byte[] {4, 5, 6});
    Fingerprint before = fingerprint(spark, table);
    ByteArrayOutputStream listed = new ByteArrayOutputStream();

    assertThat(run(listed, "remove_orphan_files", table, "--older-than", "5d", "--dry-run"))
        .isZero();
    assertThat(listed.toString(StandardCharsets.UTF_8))
        .matches("orphan_file_location: \\S*/db/job_orphans/data/old-orphan.parquet\n");
    assertThat(old).exists();

    ByteArrayOutputStream removed = new ByteArrayOutputStream();
    assertThat(run(removed, "remove-orphan-files", table, "--older-than", "5d")).isZero();

    assertThat(removed.toString(StandardCharsets.UTF_8))
        .endsWith("/db/job_orphans/data/old-orphan.parquet\n");
    assertThat(old).doesNotExist();
    assertThat(fresh).exists();
    assertThat(fingerprint(spark, table)).isEqualTo(before);
  }

  @Test
  void rewritesManifests() {
    String table = createTable("job_manifests", 5);
    Fingerprint before = fingerprint(spark, table);
    ByteArrayOutputStream out = new ByteArrayOutputStream();

    int exitCode =
        run(out, "rewrite_manifests", table, "--spec-id", "0", "--target-manifest-size", "8MB");

    assertThat(exitCode).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8))
        .contains("rewritten_manifests_count: 5\n", "added_manifests_count: 1\n");
    assertThat(spark.sql("SELECT count(*) FROM " + table + ".manifests").first().getLong(0))
        .isEqualTo(1);
    assertThat(fingerprint(spark, table)).isEqualTo(before);
  }

  @Test
  void maintainsWithSkippedSteps() {
    String table = createTable("job_maintain", 6);
    Fingerprint before = fingerprint(spark, table);
    ByteArrayOutputStream out = new ByteArrayOutputStream();

    int exitCode = run(out, "maintain", table, "--skip", "expire", "--skip-orphans");

    assertThat(exitCode).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8))
        .startsWith("step: expire\nstatus: skipped\n")
        .contains(
            "step: orphans\nstatus: skipped\n",
            "step: compact\nstatus: done\n",
            "step: manifests\nstatus: done\n");
    assertThat(dataFileCount(spark, table)).isEqualTo(1);
    assertThat(fingerprint(spark, table)).isEqualTo(before);
  }

  @Test
  void badFlagsPrintOneLineAndChangeNothing() {
    String table = createTable("job_bad_maintenance", 2);
    long snapshots = snapshotCount(table);
    ByteArrayOutputStream err = new ByteArrayOutputStream();

    int exitCode =
        LakeOpsJob.run(
            spark,
            print(new ByteArrayOutputStream()),
            print(err),
            "expire_snapshots",
            table,
            "--retain-last",
            "0");

    assertThat(exitCode).isEqualTo(1);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .isEqualTo(
            "Invalid argument retain_last => 0: every branch keeps at least its head; use 1 or more\n");
    ByteArrayOutputStream orphanErr = new ByteArrayOutputStream();
    assertThat(
            LakeOpsJob.run(
                spark,
                print(new ByteArrayOutputStream()),
                print(orphanErr),
                "remove_orphan_files",
                table,
                "--older-than",
                "1h"))
        .isEqualTo(1);
    assertThat(orphanErr.toString(StandardCharsets.UTF_8))
        .startsWith("Invalid argument older_than => ")
        .endsWith(
            ": files written in the last 3d may belong to writes still in progress; use a timestamp at least that long ago\n");
    assertThat(snapshotCount(table)).isEqualTo(snapshots);
  }

  private static int run(ByteArrayOutputStream out, String... args) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exitCode = LakeOpsJob.run(spark, print(out), print(err), args);
    assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
    return exitCode;
  }

  private static long snapshotCount(String table) {
    return spark.sql("SELECT count(*) FROM " + table + ".snapshots").first().getLong(0);
  }

  private static String createTable(String name, int inserts) {
    String table = "cat.db." + name;
    spark.sql("CREATE TABLE " + table + " (id BIGINT, data STRING) USING iceberg");
    for (int insert = 0; insert < inserts; insert++) {
      spark.sql(
          "INSERT INTO "
              + table
              + " SELECT id, concat('d', id % 5) FROM range("
              + insert * 100
              + ", "
              + (insert + 1) * 100
              + ", 1, 1)");
    }
    return table;
  }

  private static PrintStream print(ByteArrayOutputStream bytes) {
    return new PrintStream(bytes, true, StandardCharsets.UTF_8);
  }
}
