package dev.lakeops.trino.engine;

import static io.trino.testing.TestingSession.testSessionBuilder;

import com.google.common.collect.ImmutableMap;
import dev.lakeops.trino.LakeOpsPlugin;
import io.trino.plugin.iceberg.IcebergPlugin;
import io.trino.spi.eventlistener.EventListener;
import io.trino.testing.StandaloneQueryRunner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.jdbc.JdbcCatalog;

/**
 * An in-process coordinator with the Iceberg connector ({@code iceberg}) and the LakeOps connector
 * ({@code lakeops}) on one Iceberg JDBC catalog (SQLite file) and one local warehouse: the tables
 * Trino writes are the tables LakeOps compacts.
 */
public final class LakeOpsQueryRunner {
  public static final String JDBC_CATALOG_NAME = "lake";
  public static final String SCHEMA = "db";

  private LakeOpsQueryRunner() {}

  public static StandaloneQueryRunner create(Path directory, List<EventListener> eventListeners)
      throws Exception {
    return create(directory, eventListeners, Map.of());
  }

  /** As above, with {@code lakeOpsProperties} added to the {@code lakeops} catalog's file. */
  public static StandaloneQueryRunner create(
      Path directory, List<EventListener> eventListeners, Map<String, String> lakeOpsProperties)
      throws Exception {
    Path warehouse = Files.createDirectories(directory.resolve("warehouse"));
    String url = "jdbc:sqlite:" + directory.resolve("catalog.db");
    createCatalogTables(url);
    StandaloneQueryRunner runner =
        new StandaloneQueryRunner(
            testSessionBuilder().setCatalog("iceberg").setSchema(SCHEMA).build(),
            server -> server.setEventListeners(eventListeners));
    try {
      runner.installPlugin(new IcebergPlugin());
      runner.installPlugin(new LakeOpsPlugin());
      Map<String, String> shared = sharedCatalogProperties(url, warehouse);
      runner.createCatalog("iceberg", "iceberg", shared);
      Map<String, String> lakeOps = new HashMap<>(lakeOpsCatalogProperties(url, warehouse));
      lakeOps.putAll(lakeOpsProperties);
      runner.createCatalog("lakeops", "lakeops", lakeOps);
      runner.execute("CREATE SCHEMA iceberg." + SCHEMA);
      return runner;
    } catch (Exception | Error e) {
      runner.close();
      throw e;
    }
  }

  /** The keys both catalog files share: Trino's Iceberg JDBC catalog on a local warehouse. */
  public static Map<String, String> sharedCatalogProperties(String url, Path warehouse) {
    return ImmutableMap.<String, String>builder()
        .put("iceberg.catalog.type", "jdbc")
        .put("iceberg.jdbc-catalog.driver-class", "org.sqlite.JDBC")
        .put("iceberg.jdbc-catalog.connection-url", url)
        .put("iceberg.jdbc-catalog.catalog-name", JDBC_CATALOG_NAME)
        .put("iceberg.jdbc-catalog.default-warehouse-dir", "local:///")
        .put("fs.local.enabled", "true")
        .put("local.location", warehouse.toString())
        .buildOrThrow();
  }

  public static Map<String, String> lakeOpsCatalogProperties(String url, Path warehouse) {
    Map<String, String> properties = new HashMap<>(sharedCatalogProperties(url, warehouse));
    properties.put("lakeops.memory-budget", "128MB");
    return properties;
  }

  /** Trino's JDBC catalog expects Iceberg's catalog tables to exist; Iceberg Java creates them. */
  private static void createCatalogTables(String url) throws Exception {
    try (JdbcCatalog catalog = new JdbcCatalog()) {
      catalog.initialize(JDBC_CATALOG_NAME, Map.of("uri", url, "warehouse", "local:///"));
    }
  }
}
