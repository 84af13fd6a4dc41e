package dev.lakeops.cli.serve;

import dev.lakeops.cli.Main;
import dev.lakeops.control.DaemonHarness;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * Starts real {@code lakeops serve} processes (the CLI's main class on the test class path) and
 * gives each test a fresh PostgreSQL schema to share as their store (public for the benchmarks).
 */
public final class ServeProcesses {
  static final String POSTGRESQL_URL =
      System.getProperty(
          "telemetry.test.postgresql.url", "jdbc:postgresql://127.0.0.1:5432/test?user=postgres");

  private ServeProcesses() {}

  /** {@code lakeops serve --warehouse warehouse options...}, its output in {@code log}. */
  static Process serve(Path warehouse, Path log, String... options) throws IOException {
    List<String> arguments = new ArrayList<>(List.of("--warehouse", warehouse.toString()));
    arguments.addAll(List.of(options));
    return lakeops(log, "serve", arguments.toArray(String[]::new));
  }

  /** {@code lakeops command options...}, its output in {@code log}. */
  static Process lakeops(Path log, String command, String... options) throws IOException {
    String classPath =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> line =
        new ArrayList<>(
            List.of(
                java,
                "-Xmx384m",
                "-XX:TieredStopAtLevel=1",
                "--add-opens=java.base/java.nio=ALL-UNNAMED",
                "-cp",
                classPath,
                Main.class.getName(),
                command));
    line.addAll(List.of(options));
    return new ProcessBuilder(line).redirectErrorStream(true).redirectOutput(log.toFile()).start();
  }

  /** A new, empty schema of the test server; returns its store configuration. */
  public static String freshPostgresqlStore(String prefix) throws SQLException {
    String schema = prefix + "_" + UUID.randomUUID().toString().replace("-", "");
    execute("CREATE SCHEMA " + schema);
    return POSTGRESQL_URL + (POSTGRESQL_URL.contains("?") ? "&" : "?") + "currentSchema=" + schema;
  }

  /** Drops the schema of {@code store}, made by {@link #freshPostgresqlStore}. */
  public static void dropPostgresqlStore(String store) throws SQLException {
    execute("DROP SCHEMA " + store.substring(store.indexOf("currentSchema=") + 14) + " CASCADE");
  }

  /** Whether the test server answers; tests that need it are skipped otherwise. */
  public static boolean postgresqlReachable() {
    try (Connection connection = DriverManager.getConnection(POSTGRESQL_URL)) {
      return true;
    } catch (SQLException e) {
      return false;
    }
  }

  private static void execute(String sql) throws SQLException {
    try (Connection connection = DriverManager.getConnection(POSTGRESQL_URL);
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }

  static void awaitLog(Path log, Duration timeout, Predicate<String> condition)
      throws InterruptedException {
    try {
      DaemonHarness.await("serve's log in " + log, timeout, () -> condition.test(read(log)));
    } catch (AssertionError e) {
      String text = read(log);
      throw new AssertionError(
          e.getMessage() + "; the log ends:\n" + text.substring(Math.max(0, text.length() - 6000)),
          e);
    }
  }

  public static String read(Path log) {
    try {
      return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static int countOf(String text, String part) {
    int count = 0;
    for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
      count++;
    }
    return count;
  }
}
