package dev.lakeops.serve.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.Catalog;

/**
 * The PostgreSQL JDBC catalog the serve benchmarks build their lakes in: each run names a new
 * catalog, so its tables never meet an earlier run's, with its warehouse under the run's directory.
 */
final class BenchmarkCatalog {
  static final String POSTGRESQL =
      System.getProperty("lakeops.benchmark.catalog-url", "jdbc:postgresql://127.0.0.1:5432/test");

  private BenchmarkCatalog() {}

  /** The catalog properties of {@code catalogName}, its warehouse {@code work/catalogName}. */
  static Map<String, String> properties(Path work, String catalogName) throws IOException {
    Path warehouse = work.resolve(catalogName);
    Files.createDirectories(warehouse);
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put("type", "jdbc");
    properties.put("uri", POSTGRESQL);
    properties.put("jdbc.user", "postgres");
    properties.put("warehouse", warehouse.toString());
    return properties;
  }

  static Catalog connect(String catalogName, Map<String, String> properties) {
    return connect(catalogName, properties, new Configuration());
  }

  static Catalog connect(
      String catalogName, Map<String, String> properties, Configuration configuration) {
    return CatalogUtil.buildIcebergCatalog(catalogName, properties, configuration);
  }
}
