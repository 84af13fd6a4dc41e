package dev.lakeops.spark;

import static java.util.Objects.requireNonNull;

import dev.lakeops.spark.iceberg.IcebergClassNames;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.spark.sql.classic.SparkSession;
import org.apache.spark.sql.connector.catalog.CatalogManager;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Finds the Iceberg catalog a table name points at and builds the same catalog from the session's
 * {@code spark.sql.catalog.<name>.*} settings, the way Iceberg's own {@code SparkCatalog} does.
 * Every failure is an {@link IllegalArgumentException} whose message names the thing and the fix.
 */
final class SessionIcebergCatalogs {
  private static final String CATALOG_PREFIX = "spark.sql.catalog.";
  private static final String HADOOP_PREFIX = "hadoop.";

  private final SparkSession spark;

  SessionIcebergCatalogs(SparkSession spark) {
    this.spark = requireNonNull(spark, "spark is null");
  }

  /**
   * Splits {@code cat.db.t} (backquotes allowed); without a configured catalog, uses the current
   * one.
   */
  SessionTableName resolve(String text) {
    requireNonNull(text, "text is null");
    List<String> parts = parse(text);
    Map<String, String> confs = sessionConfs();
    String table = parts.get(parts.size() - 1);
    if (parts.size() >= 2 && confs.containsKey(CATALOG_PREFIX + parts.get(0))) {
      return new SessionTableName(parts.get(0), parts.subList(1, parts.size() - 1), table);
    }
    if (parts.size() >= 3) {
      throw new IllegalArgumentException(
          "Catalog '"
              + parts.get(0)
              + "' of table '"
              + text
              + "' is not configured: set "
              + CATALOG_PREFIX
              + parts.get(0)
              + "="
              + IcebergClassNames.USER_PACKAGE
              + "spark.SparkCatalog and its type and warehouse");
    }
    CatalogManager catalogs = spark.sessionState().catalogManager();
    List<String> namespace =
        parts.size() == 2 ? List.of(parts.get(0)) : Arrays.asList(catalogs.currentNamespace());
    return new SessionTableName(catalogs.currentCatalog().name(), namespace, table);
  }

  /** Builds the table's Iceberg catalog and loads the table; the caller closes both. */
  LoadedTable load(SessionTableName name) {
    requireNonNull(name, "name is null");
    Map<String, String> properties = catalogProperties(name.catalog());
    Catalog catalog = buildCatalog(name.catalog(), properties);
    TableIdentifier identifier =
        TableIdentifier.of(Namespace.of(name.namespace().toArray(String[]::new)), name.table());
    try {
      Table table = catalog.loadTable(identifier);
      return new LoadedTable(catalog, table);
    } catch (NoSuchTableException e) {
      LoadedTable.closeCatalog(catalog);
      throw new IllegalArgumentException(
          "Table '"
              + name
              + "' does not exist in Iceberg catalog '"
              + name.catalog()
              + "': check the name with SHOW TABLES IN "
              + name.catalog()
              + (name.namespace().isEmpty() ? "" : "." + String.join(".", name.namespace())),
          e);
    }
  }

  private Map<String, String> catalogProperties(String catalogName) {
    Map<String, String> confs = sessionConfs();
    String key = CATALOG_PREFIX + catalogName;
    String catalogClass = confs.get(key);
    if (catalogClass == null) {
      throw new IllegalArgumentException(
          "Catalog '"
              + catalogName
              + "' is not configured: set "
              + key
              + "="
              + IcebergClassNames.USER_PACKAGE
              + "spark.SparkCatalog and its type and warehouse");
    }
    if (!IcebergClassNames.SPARK_CATALOGS.contains(catalogClass.trim())) {
      throw new IllegalArgumentException(
          "Catalog '"
              + catalogName
              + "' is not an Iceberg catalog ("
              + key
              + "="
              + catalogClass
              + "): LakeOps compacts tables of "
              + String.join(" or ", new TreeSet<>(IcebergClassNames.SPARK_CATALOGS)));
    }
    String prefix = key + ".";
    Map<String, String> properties = new HashMap<>();
    confs.forEach(
        (name, value) -> {
          if (name.startsWith(prefix)) {
            String property = name.substring(prefix.length());
            properties.put(
                property, property.endsWith("-impl") ? IcebergClassNames.toBundled(value) : value);
          }
        });
    return properties;
  }

  private Catalog buildCatalog(String catalogName, Map<String, String> properties) {
    Configuration hadoopConf = spark.sessionState().newHadoopConf();
    properties.forEach(
        (name, value) -> {
          if (name.startsWith(HADOOP_PREFIX)) {
            hadoopConf.set(name.substring(HADOOP_PREFIX.length()), value);
          }
        });
    try {
      return CatalogUtil.buildIcebergCatalog(catalogName, properties, hadoopConf);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "Cannot build Iceberg catalog '"
              + catalogName
              + "' from "
              + CATALOG_PREFIX
              + catalogName
              + ".*: "
              + firstLine(e.getMessage())
              + " (LakeOps bundles the hadoop, rest and jdbc catalog types)",
          e);
    }
  }

  private List<String> parse(String text) {
    try {
      List<String> parts =
          CollectionConverters.asJava(
              spark.sessionState().sqlParser().parseMultipartIdentifier(text));
      if (parts.isEmpty()) {
        throw new IllegalArgumentException("empty name");
      }
      return List.copyOf(parts);
    } catch (Exception e) {
      throw new IllegalArgumentException(
          "Invalid table name '"
              + text
              + "': use catalog.namespace.table, e.g. 'my_catalog.db.events'",
          e);
    }
  }

  private Map<String, String> sessionConfs() {
    return CollectionConverters.asJava(spark.sessionState().conf().getAllConfs());
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "no detail";
    }
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }
}
