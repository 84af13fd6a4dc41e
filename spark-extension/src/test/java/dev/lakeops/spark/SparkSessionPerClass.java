package dev.lakeops.spark;

import java.nio.file.Path;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * A test class's own local Spark session ({@link LocalSpark}) on a fresh warehouse with the
 * namespace {@code cat.db}: started before the class's first test, stopped after its last.
 */
public abstract class SparkSessionPerClass {
  @TempDir protected static Path warehouse;
  protected static SparkSession spark;

  @BeforeAll
  static void startSpark() {
    spark = LocalSpark.start(warehouse);
    spark.sql("CREATE NAMESPACE IF NOT EXISTS cat.db");
  }

  @AfterAll
  static void stopSpark() {
    if (spark != null) {
      spark.stop();
    }
  }
}
