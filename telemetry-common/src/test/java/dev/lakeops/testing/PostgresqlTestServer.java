package dev.lakeops.testing;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The PostgreSQL server the telemetry store's tests run against: the {@code
 * telemetry.test.postgresql.url} system property, by default the local server at 127.0.0.1:5432
 * (trust authentication, database {@code test}). A test that needs it is skipped, with the reason,
 * when no server answers there.
 */
public final class PostgresqlTestServer {
  public static final String URL =
      System.getProperty(
          "telemetry.test.postgresql.url", "jdbc:postgresql://127.0.0.1:5432/test?user=postgres");

  private static final Pattern HOST_AND_PORT = Pattern.compile("jdbc:postgresql://([^/?]+)");

  private static volatile String unreachableReason;
  private static volatile boolean probed;

  private PostgresqlTestServer() {}

  /** Skips the calling test, saying why and how to start the server, when it is not reachable. */
  public static void assumeReachable() {
    String reason = unreachableReason();
    assumeTrue(reason == null, reason);
  }

  private static synchronized String unreachableReason() {
    if (!probed) {
      probed = true;
      unreachableReason = probe();
      if (unreachableReason != null) {
        // Once in the build's output, not only in each skipped test's report
        System.err.println("Skipping the PostgreSQL tests: " + unreachableReason);
      }
    }
    return unreachableReason;
  }

  private static String probe() {
    String separator = URL.contains("?") ? "&" : "?";
    try (Connection connection =
        DriverManager.getConnection(URL + separator + "connectTimeout=5&loginTimeout=5")) {
      return null;
    } catch (SQLException e) {
      return "PostgreSQL is not reachable at "
          + hostAndPort()
          + " ("
          + e.getMessage()
          + "): start it with"
          + " `pg_ctlcluster <version> main start` (as .ci/run does; trust authentication, database test)"
          + " or point -Dtelemetry.test.postgresql.url at another server";
    }
  }

  private static String hostAndPort() {
    Matcher matcher = HOST_AND_PORT.matcher(URL);
    return matcher.find() ? matcher.group(1) : URL;
  }
}
