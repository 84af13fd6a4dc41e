package dev.lakeops.spark.bench;

import static java.util.Objects.requireNonNull;

import dev.lakeops.catalog.CatalogConnector;
import dev.lakeops.catalog.CatalogSettings;
import java.io.Closeable;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.iceberg.catalog.Catalog;
import org.apache.spark.sql.SparkSession;

/**
 * One table's catalog in the object-storage benchmark: an Iceberg JDBC catalog on a SQLite file of
 * its own whose warehouse is a folder of the S3 server's bucket. The same properties reach this
 * JVM's catalog, Spark's ({@link #configure}) and {@code bin/lakeops} ({@link
 * #commandLineOptions}); all three name the catalog {@link #NAME}, which the JDBC catalog stores
 * with each table.
 */
record ObjectStoreCatalog(Map<String, String> properties) {
  static final String NAME = "bench";

  ObjectStoreCatalog {
    requireNonNull(properties, "properties is null");
    properties = Map.copyOf(new LinkedHashMap<>(properties));
  }

  /**
   * The catalog of {@code name}: {@code <catalogs>/<name>.db}, warehouse {@code s3://bucket/name}.
   */
  static ObjectStoreCatalog of(ObjectStoreServer server, Path catalogs, String name) {
    return new ObjectStoreCatalog(
        server.jdbcCatalogProperties(catalogs.resolve(name + ".db"), name));
  }

  /** Connects; close the catalog with {@link #close(Catalog)}. */
  Catalog connect() {
    return CatalogConnector.connect(new CatalogSettings(NAME, properties));
  }

  static void close(Catalog catalog) {
    if (catalog instanceof Closeable closeable) {
      try {
        closeable.close();
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot close catalog " + catalog.name(), e);
      }
    }
  }

  /** {@code -C name=bench -C key=value ...}, as a user passes them to {@code bin/lakeops}. */
  List<String> commandLineOptions() {
    List<String> options = new ArrayList<>(List.of("-C", "name=" + NAME));
    new TreeMap<>(properties)
        .forEach((key, value) -> options.addAll(List.of("-C", key + "=" + value)));
    return options;
  }

  /** Adds this catalog to a Spark session as {@code bench}, an Iceberg {@code SparkCatalog}. */
  SparkSession.Builder configure(SparkSession.Builder builder) {
    String prefix = "spark.sql.catalog." + NAME;
    builder.config(prefix, "org.apache.iceberg.spark.SparkCatalog");
    properties.forEach((key, value) -> builder.config(prefix + "." + key, value));
    return builder;
  }

  /** Writes the properties to {@code file}, for a phase's JVM to {@link #read}. */
  void write(Path file) {
    Properties stored = new Properties();
    stored.putAll(properties);
    try (Writer writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      stored.store(writer, "object-storage benchmark catalog");
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write " + file, e);
    }
  }

  static ObjectStoreCatalog read(Path file) {
    Properties stored = new Properties();
    try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      stored.load(reader);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read catalog properties " + file, e);
    }
    Map<String, String> properties = new LinkedHashMap<>();
    stored.stringPropertyNames().forEach(key -> properties.put(key, stored.getProperty(key)));
    return new ObjectStoreCatalog(properties);
  }
}
