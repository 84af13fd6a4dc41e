package dev.lakeops.spark.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.spark.sql.SparkSession;

/**
 * The object-storage benchmark's source table of one shape, written by Spark's Iceberg writer
 * through {@code S3FileIO} into the S3 server (without latency: writing is not timed), one {@code
 * INSERT} of eight files per commit, the rows of {@link SparkWrittenTable}. A complete table from
 * an earlier run is reused; anything else is dropped and written again.
 */
public final class ObjectStoreSourceTable {
  private ObjectStoreSourceTable() {}

  /**
   * The source table in {@code connected} (the catalog {@code catalog} describes, kept open while
   * the table is used).
   */
  static Table writeOrReuse(
      ObjectStoreCatalog catalog, Catalog connected, BenchmarkSize size, ObjectStoreShape shape) {
    if (connected.tableExists(SideBySideBenchmark.TABLE)) {
      Table existing = connected.loadTable(SideBySideBenchmark.TABLE);
      if (dataFiles(existing) == size.files()) {
        SideBySideBenchmark.log("reusing %s table %s", shape.label(), existing.location());
        return existing;
      }
      SideBySideBenchmark.log(
          "dropping incomplete %s table %s", shape.label(), existing.location());
      connected.dropTable(SideBySideBenchmark.TABLE, true);
    }
    long started = System.nanoTime();
    writeInSparkJvm(catalog, size, shape);
    Table table = connected.loadTable(SideBySideBenchmark.TABLE);
    SideBySideBenchmark.log(
        "Spark wrote the %s table %s: %d files in %s",
        shape.label(),
        table.location(),
        dataFiles(table),
        Duration.ofNanos(System.nanoTime() - started));
    return table;
  }

  private static long dataFiles(Table table) {
    return table.currentSnapshot() == null
        ? 0
        : Long.parseLong(table.currentSnapshot().summary().get("total-data-files"));
  }

  /**
   * Writes the table in a Spark JVM of its own ({@link #main}): Spark cannot run in the JVM that
   * serves s3proxy ({@link SparkJvmCommand}).
   */
  private static void writeInSparkJvm(
      ObjectStoreCatalog catalog, BenchmarkSize size, ObjectStoreShape shape) {
    try {
      Path properties = Files.createTempFile("objectstore-writer", ".properties");
      try {
        catalog.write(properties);
        Process process =
            new ProcessBuilder(
                    SparkJvmCommand.of(
                        "2g",
                        ObjectStoreSourceTable.class,
                        properties.toString(),
                        size.label(),
                        shape.label()))
                .inheritIO()
                .start();
        if (process.waitFor() != 0) {
          throw new IllegalStateException(
              "Spark could not write the "
                  + shape.label()
                  + " source table: exit code "
                  + process.exitValue()
                  + " (its errors are above)");
        }
      } finally {
        Files.deleteIfExists(properties);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot start Spark to write the source table", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while Spark wrote the source table", e);
    }
  }

  /** A Spark JVM's entry point: arguments {@code <catalog properties file> <size> <shape>}. */
  public static void main(String[] args) {
    write(
        ObjectStoreCatalog.read(Path.of(args[0])),
        BenchmarkSize.parse(args[1]),
        ObjectStoreShape.parse(args[2]));
    System.exit(0);
  }

  private static void write(
      ObjectStoreCatalog catalog, BenchmarkSize size, ObjectStoreShape shape) {
    int filesPerCommit = shape.filesPerCommit();
    if (size.files() % filesPerCommit != 0) {
      throw new IllegalArgumentException(
          size.files()
              + " files cannot be written "
              + filesPerCommit
              + " per commit: pick a multiple");
    }
    int commits = size.files() / filesPerCommit;
    long rowsPerCommit = (long) size.rowsPerFile() * filesPerCommit;
    String table = ObjectStoreCatalog.NAME + "." + SideBySideBenchmark.TABLE;
    SparkSession spark =
        catalog
            .configure(BenchmarkSparkSessions.builder("lakeops-objectstore-writer"))
            .config("spark.sql.session.timeZone", "UTC")
            .getOrCreate();
    try {
      spark.sql("CREATE NAMESPACE IF NOT EXISTS " + ObjectStoreCatalog.NAME + ".db");
      spark.sql(
          "CREATE TABLE "
              + table
              + " (event_id BIGINT, user_id BIGINT, country STRING, event_type STRING,"
              + " amount DOUBLE, ts TIMESTAMP, day DATE, payload STRING) USING iceberg"
              + (shape.partitions() > 0 ? " PARTITIONED BY (day)" : "")
              + " TBLPROPERTIES ('format-version' = '2', 'write.parquet.compression-codec' = 'zstd',"
              + " 'write.distribution-mode' = 'none', 'write.spark.fanout.enabled' = 'true',"
              + " 'write.metadata.delete-after-commit.enabled' = 'true',"
              + " 'write.metadata.previous-versions-max' = '20')");
      long started = System.nanoTime();
      for (int commit = 0; commit < commits; commit++) {
        long from = commit * rowsPerCommit;
        spark.sql(
            "INSERT INTO "
                + table
                + " "
                + SparkWrittenTable.rows(
                    from, from + rowsPerCommit, ObjectStoreShape.DAYS, shape.tasksPerCommit()));
        if ((commit + 1) % 25 == 0) {
          SideBySideBenchmark.log(
              "Spark INSERT %d of %d after %s",
              commit + 1, commits, Duration.ofNanos(System.nanoTime() - started));
        }
      }
    } finally {
      spark.stop();
    }
  }
}
