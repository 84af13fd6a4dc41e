package dev.lakeops.catalog;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.iceberg.CatalogProperties;

/**
 * Iceberg catalog properties gathered from the command line: a warehouse directory alone means the
 * embedded default (a Hadoop catalog on local disk); otherwise Iceberg's own catalog property keys
 * ({@code type}, {@code uri}, {@code warehouse}, {@code catalog-impl}, {@code io-impl}, ...).
 */
public record CatalogSettings(String name, Map<String, String> properties) {
  public static final String DEFAULT_NAME = "lakeops";

  public CatalogSettings {
    requireNonNull(name, "name is null");
    properties = Map.copyOf(requireNonNull(properties, "properties is null"));
  }

  /**
   * Merges, in increasing precedence, a properties file, a warehouse directory and explicit {@code
   * -C} properties.
   */
  public static CatalogSettings from(
      Optional<Path> configFile, Optional<Path> warehouse, Map<String, String> explicit) {
    Map<String, String> merged = new LinkedHashMap<>();
    configFile.ifPresent(file -> merged.putAll(readProperties(file)));
    warehouse.ifPresent(
        directory ->
            merged.put(
                CatalogProperties.WAREHOUSE_LOCATION, directory.toAbsolutePath().toString()));
    merged.putAll(explicit);
    if (merged.isEmpty()) {
      throw new IllegalArgumentException(
          "No catalog given: use --warehouse DIR for a local warehouse, or -C type=rest -C uri=... "
              + "(or --catalog-config FILE)");
    }
    if (!merged.containsKey(CatalogProperties.CATALOG_IMPL) && !merged.containsKey("type")) {
      merged.put("type", "hadoop");
    }
    if ("hadoop".equals(merged.get("type"))
        && !merged.containsKey(CatalogProperties.WAREHOUSE_LOCATION)) {
      throw new IllegalArgumentException(
          "A hadoop catalog needs a warehouse: add --warehouse DIR or -C warehouse=PATH");
    }
    String name = merged.getOrDefault("name", DEFAULT_NAME);
    merged.remove("name");
    return new CatalogSettings(name, merged);
  }

  private static Map<String, String> readProperties(Path file) {
    Properties properties = new Properties();
    try (Reader reader = Files.newBufferedReader(file)) {
      properties.load(reader);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot read catalog config file " + file + ": " + e.getMessage(), e);
    }
    Map<String, String> values = new LinkedHashMap<>();
    properties
        .stringPropertyNames()
        .forEach(key -> values.put(key, properties.getProperty(key).trim()));
    return values;
  }
}
