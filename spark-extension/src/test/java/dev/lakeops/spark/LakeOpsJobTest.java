package dev.lakeops.spark;

import static dev.lakeops.spark.LocalSpark.dataFileCount;
import static dev.lakeops.spark.LocalSpark.fingerprint;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.spark.LocalSpark.Fingerprint;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@link LakeOpsJob}, the spark-submit entry point, in a real local session. */
class LakeOpsJobTest extends SparkSessionPerClass {
  @Test
  void compactsWithTheCliFlagsOnTheSessionsExecutors() {
    String table = createTable("job_sorted");
    Fingerprint before = fingerprint(spark, table);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();

    int exitCode =
        LakeOpsJob.run(
            spark,
            print(out),
            print(err),
            "compact",
            table,
            "--strategy",
            "sort",
            "--sort-order",
            "data DESC, id",
            "--option",
            "min-input-files=2",
            "--target-file-size",
            "64MB");

    assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
    assertThat(exitCode).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8))
        .contains(
            "rewritten_data_files_count: 6\n", "added_data_files_count: 1\n", "strategy: sort\n");
    assertThat(fingerprint(spark, table)).isEqualTo(before);
    assertThat(dataFileCount(spark, table)).isEqualTo(1);
  }

  @Test
  void compactsOnTheDriverWhenAskedTo() {
    String table = createTable("job_driver");
    Fingerprint before = fingerprint(spark, table);
    ByteArrayOutputStream out = new ByteArrayOutputStream();

    int exitCode =
        LakeOpsJob.run(
            spark,
            print(out),
            print(new ByteArrayOutputStream()),
            "compact",
            table,
            "--execution",
            "driver");

    assertThat(exitCode).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("rewritten_data_files_count: 6\n");
    assertThat(fingerprint(spark, table)).isEqualTo(before);
  }

  @Test
  void badInputPrintsOneLineAndChangesNothing() {
    String table = createTable("job_bad");
    long files = dataFileCount(spark, table);
    ByteArrayOutputStream err = new ByteArrayOutputStream();

    int exitCode =
        LakeOpsJob.run(
            spark,
            print(new ByteArrayOutputStream()),
            print(err),
            "compact",
            table,
            "--execution",
            "cluster");

    assertThat(exitCode).isEqualTo(1);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .isEqualTo(
            "Invalid argument execution => 'cluster': Unknown execution 'cluster': use 'driver' or 'executors'\n");
    assertThat(dataFileCount(spark, table)).isEqualTo(files);
  }

  private static String createTable(String name) {
    String table = "cat.db." + name;
    spark.sql("CREATE TABLE " + table + " (id BIGINT, data STRING) USING iceberg");
    for (int insert = 0; insert < 6; insert++) {
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
