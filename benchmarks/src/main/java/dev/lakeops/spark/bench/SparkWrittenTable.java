package dev.lakeops.spark.bench;

import java.nio.file.Path;
import java.time.Duration;
import org.apache.iceberg.Table;
import org.apache.spark.sql.SparkSession;

/**
 * Writes the benchmark's source table the way a user's Spark job does: {@code CREATE TABLE ...
 * USING iceberg} and one Spark {@code INSERT} per commit, through Iceberg's Spark writer (zstd,
 * format version 2, the generator's 8 columns, partitioned by day). Two tasks per commit, each
 * writing one file per day it sees (fanout, no shuffle, as a streaming job writes), so every commit
 * adds {@code 2 × days} small files. {@code event_id} comes from Spark's {@code range}, which is
 * never null, so Spark writes that column {@code required} in the Parquet files while the table has
 * it optional.
 *
 * <p>Runnable on its own to prepare a table ahead of a benchmark: arguments {@code <warehouse>
 * <size>}.
 */
final class SparkWrittenTable {
  static final int TASKS_PER_COMMIT = 2;
  private static final String COUNTRIES =
      "array('NL', 'BE', 'DE', 'FR', 'US', 'GB', 'ES', 'IT', 'PL', 'SE')";
  private static final String EVENT_TYPES =
      "array('view', 'click', 'purchase', 'signup', 'logout')";

  private static final String WIDE_COLUMNS =
      ", concat('https://shop.example.com/', element_at(array('cart', 'product', 'search',"
          + " 'checkout', 'account', 'help'), pmod(hash(id, 8), 6) + 1), '/',"
          + " lower(hex(xxhash64(id, 9)))) AS url,"
          + " element_at(array('Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/131.0',"
          + " 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_1) Safari/605.1.15',"
          + " 'Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0', 'Mozilla/5.0 (iPhone; CPU iPhone OS"
          + " 18_1) Mobile/15E148', 'Mozilla/5.0 (Linux; Android 15) Chrome/131.0 Mobile',"
          + " 'curl/8.11.0', 'python-requests/2.32.3', 'okhttp/4.12.0'), pmod(hash(id, 10), 8)"
          + " + 1) AS user_agent,"
          + " concat(lower(hex(xxhash64(id, 11))), lower(hex(xxhash64(id, 12)))) AS session_id,"
          + " base64(unhex(concat(hex(xxhash64(id, 13)), hex(xxhash64(id, 14)),"
          + " hex(xxhash64(id, 15))))) AS note";

  private SparkWrittenTable() {}

  public static void main(String[] args) {
    Path warehouse = Path.of(args[0]).toAbsolutePath();
    BenchmarkSize size = BenchmarkSize.parse(args[1]);
    Table table = SideBySideBenchmark.writeOrReuse(warehouse, size, BenchmarkSource.SPARK);
    SideBySideBenchmark.log("table %s: %s", table.location(), table.currentSnapshot().summary());
  }

  /**
   * Whether {@code table} is this size's table cut short (its writer stopped between commits), so
   * that {@link #create} can carry on where it stopped.
   */
  static boolean resumable(Table table, BenchmarkSize size) {
    long files =
        table.currentSnapshot() == null
            ? 0
            : Long.parseLong(table.currentSnapshot().summary().get("total-data-files"));
    return files < size.files() && files % filesPerCommit(size) == 0;
  }

  private static int filesPerCommit(BenchmarkSize size) {
    return TASKS_PER_COMMIT * Math.max(1, size.days());
  }

  /**
   * Creates {@code db.events} in the Hadoop catalog over {@code warehouse} and fills it, commit by
   * commit; a table cut short ({@link #resumable}) gets the commits it lacks.
   */
  static void create(Path warehouse, BenchmarkSize size) {
    int days = Math.max(1, size.days());
    int filesPerCommit = filesPerCommit(size);
    if (size.files() % filesPerCommit != 0) {
      throw new IllegalArgumentException(
          size.files()
              + " files cannot be written "
              + filesPerCommit
              + " per commit: pick a multiple");
    }
    int commits = size.files() / filesPerCommit;
    long rowsPerCommit = (long) size.rowsPerFile() * filesPerCommit;
    SparkSession spark =
        BenchmarkSparkSessions.withHadoopCatalog(
                BenchmarkSparkSessions.builder("lakeops-benchmark-writer"), "bench", warehouse)
            .config("spark.sql.session.timeZone", "UTC")
            .getOrCreate();
    try {
      spark.sql("CREATE NAMESPACE IF NOT EXISTS bench.db");
      spark.sql(
          "CREATE TABLE IF NOT EXISTS bench.db.events (event_id BIGINT, user_id BIGINT, country STRING, event_type STRING,"
              + " amount DOUBLE, ts TIMESTAMP, day DATE, payload STRING"
              + (size.wide()
                  ? ", url STRING, user_agent STRING, session_id STRING, note STRING"
                  : "")
              + ") USING iceberg"
              + (size.days() > 0 ? " PARTITIONED BY (day)" : "")
              + " TBLPROPERTIES ('format-version' = '2', 'write.parquet.compression-codec' = 'zstd',"
              + " 'write.distribution-mode' = 'none', 'write.spark.fanout.enabled' = 'true',"
              + " 'write.metadata.delete-after-commit.enabled' = 'true', 'write.metadata.previous-versions-max' = '20')");
      long started = System.nanoTime();
      int written =
          (int)
              (spark.sql("SELECT count(*) FROM bench.db.events.files").first().getLong(0)
                  / filesPerCommit);
      for (int commit = written; commit < commits; commit++) {
        long from = commit * rowsPerCommit;
        spark.sql(
            "INSERT INTO bench.db.events "
                + rows(from, from + rowsPerCommit, days, TASKS_PER_COMMIT, size.wide()));
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

  /**
   * Deterministic rows shaped like the generator's: ids from {@code range}, the rest derived from
   * hashes of the id.
   */
  /** The same rows, written by {@code tasks} Spark tasks (one contiguous id range each). */
  static String rows(long from, long to, int days, int tasks) {
    return rows(from, to, days, tasks, false);
  }

  /**
   * The rows, with the wide table's four extra strings when {@code wide}: a URL ending in 16 hex
   * digits, one of eight user agents, a 32-hex-digit session id and 24 random bytes in base64.
   */
  static String rows(long from, long to, int days, int tasks, boolean wide) {
    String day = "date_add(DATE'2026-11-01', CAST(id % " + days + " AS INT))";
    return "SELECT id AS event_id,"
        + " CASE WHEN pmod(hash(id, 1), 10) = 0 THEN NULL ELSE CAST(pmod(hash(id, 2), 100000) AS BIGINT) END AS user_id,"
        + " element_at("
        + COUNTRIES
        + ", pmod(hash(id, 3), 10) + 1) AS country,"
        + " element_at("
        + EVENT_TYPES
        + ", pmod(hash(id, 4), 5) + 1) AS event_type,"
        + " pmod(hash(id, 5), 10000000) / 100.0D AS amount,"
        + " timestamp_seconds(CAST(unix_date("
        + day
        + ") AS BIGINT) * 86400 + pmod(hash(id, 6), 86400)) AS ts,"
        + " "
        + day
        + " AS day,"
        + " concat('session-', lower(hex(xxhash64(id, 7)))) AS payload"
        + (wide ? WIDE_COLUMNS : "")
        + " FROM range("
        + from
        + ", "
        + to
        + ", 1, "
        + tasks
        + ")";
  }
}
