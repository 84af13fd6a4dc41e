package dev.lakeops.trino.engine;

import static io.trino.testing.TestingSession.testSessionBuilder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.base.Throwables;
import dev.lakeops.trino.LakeOpsPlugin;
import io.trino.plugin.iceberg.IcebergPlugin;
import io.trino.testing.StandaloneQueryRunner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Trino's Iceberg connector and the lakeops connector on one Iceberg JDBC catalog in a fresh
 * PostgreSQL database, as a user installs them: nothing creates the catalog's tables beforehand.
 * The connection URL and the catalog files carry credentials, which no error may show.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestPostgresCatalog {
  private static final String ADMIN_URL = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";
  private static final String PASSWORD = "url-pass-7f3a";
  private static final String PROPERTY_PASSWORD = "property-pass-91c2";
  private static final String S3_ACCESS_KEY = "AKIAEXAMPLE4TEST";
  private static final String S3_SECRET_KEY = "s3-secret-5b8e/wJalrXUtnFEMI";
  private static final List<String> SECRETS =
      List.of(PASSWORD, PROPERTY_PASSWORD, S3_ACCESS_KEY, S3_SECRET_KEY);

  private final String database = "lakeops_" + Long.toHexString(System.nanoTime());
  private Path directory;
  private StandaloneQueryRunner runner;

  @BeforeAll
  void startEngine() throws Exception {
    execute(ADMIN_URL, "CREATE DATABASE " + database);
    directory = Files.createTempDirectory("lakeops-trino-postgres");
    Path warehouse = Files.createDirectories(directory.resolve("warehouse"));
    // trust authentication ignores the password, so a URL with one works as it would in production
    String url =
        "jdbc:postgresql://127.0.0.1:5432/" + database + "?user=postgres&password=" + PASSWORD;
    Map<String, String> iceberg =
        new HashMap<>(LakeOpsQueryRunner.sharedCatalogProperties(url, warehouse));
    iceberg.put("iceberg.jdbc-catalog.driver-class", "org.postgresql.Driver");
    iceberg.put("iceberg.jdbc-catalog.connection-password", PROPERTY_PASSWORD);
    Map<String, String> lakeops = new HashMap<>(iceberg);
    lakeops.put("s3.aws-access-key", S3_ACCESS_KEY);
    lakeops.put("s3.aws-secret-key", S3_SECRET_KEY);
    runner =
        new StandaloneQueryRunner(
            testSessionBuilder().setCatalog("iceberg").setSchema("db").build());
    runner.installPlugin(new IcebergPlugin());
    runner.installPlugin(new LakeOpsPlugin());
    runner.createCatalog("iceberg", "iceberg", iceberg);
    runner.createCatalog("lakeops", "lakeops", lakeops);
  }

  @AfterAll
  void stopEngine() throws Exception {
    if (runner != null) {
      runner.close();
    }
    if (directory != null) {
      try (Stream<Path> paths = Files.walk(directory)) {
        paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
      }
    }
    execute(ADMIN_URL, "DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
  }

  @Test
  void theFirstStatementOnAFreshCatalogIsCreateSchemaAndItWorks() {
    runner.execute("CREATE SCHEMA IF NOT EXISTS iceberg.db");
    runner.execute("CREATE TABLE iceberg.db.first (id BIGINT)");
    runner.execute("INSERT INTO iceberg.db.first VALUES 1, 2, 3");
    runner.execute("INSERT INTO iceberg.db.first VALUES 4");

    runner.execute(
        "CALL lakeops.system.compact(schema_name => 'db', table_name => 'first', options => MAP(ARRAY['min-input-files'], ARRAY['2']))");

    assertThat(
            runner
                .execute("SELECT count(*), sum(id) FROM iceberg.db.first")
                .getMaterializedRows()
                .getFirst()
                .getFields())
        .containsExactly(4L, 10L);
    assertThat(runner.execute("SELECT count(*) FROM iceberg.db.\"first$files\"").getOnlyValue())
        .isEqualTo(1L);
  }

  @Test
  void errorsShownToQueryUsersCarryNoCredentials() {
    runner.execute("CREATE SCHEMA IF NOT EXISTS iceberg.db");
    List<String> failing =
        List.of(
            "CALL lakeops.system.compact(schema_name => 'db', table_name => 'missing')",
            "CALL lakeops.system.health(schema_name => 'db', table_name => 'missing')",
            "CALL lakeops.system.compact(schema_name => 'nowhere', table_name => 'missing')");
    for (String sql : failing) {
      assertThatThrownBy(() -> runner.execute(sql))
          .as(sql)
          .hasMessageContaining("not found in Iceberg catalog 'lake'")
          .satisfies(
              failure ->
                  assertThat(Throwables.getStackTraceAsString(failure))
                      .doesNotContain(SECRETS)
                      .doesNotContain("password="));
    }
    String errors =
        runner
            .execute(
                "SELECT array_join(array_agg(error), ' | ') FROM lakeops.system.runs WHERE table_name = 'missing'")
            .getOnlyValue()
            .toString();
    assertThat(errors)
        .contains("LAKEOPS_TABLE_NOT_FOUND")
        .doesNotContain(SECRETS)
        .doesNotContain("password=");
  }

  private static void execute(String url, String sql) throws SQLException {
    try (Connection connection = DriverManager.getConnection(url);
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }
}
