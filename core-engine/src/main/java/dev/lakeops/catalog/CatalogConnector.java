package dev.lakeops.catalog;

import static java.util.Objects.requireNonNull;

import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.Catalog;

/** Builds an Iceberg catalog from settings, with a one-line error when that is impossible. */
public final class CatalogConnector {
  private CatalogConnector() {}

  public static Catalog connect(CatalogSettings settings) {
    return connect(settings, hadoopConfiguration());
  }

  /** Builds the catalog with {@code configuration} as its Hadoop configuration. */
  public static Catalog connect(CatalogSettings settings, Configuration configuration) {
    requireNonNull(settings, "settings is null");
    requireNonNull(configuration, "configuration is null");
    try {
      return CatalogUtil.buildIcebergCatalog(settings.name(), settings.properties(), configuration);
    } catch (RuntimeException e) {
      throw new IllegalStateException(
          "Cannot reach catalog '"
              + settings.name()
              + "' "
              + describe(settings)
              + ": "
              + RootCause.message(e)
              + " — check the -C/--catalog-config properties",
          e);
    }
  }

  /**
   * Hadoop's configuration (its default resources and any {@code core-site.xml} on the class path)
   * with {@code file:} served by {@link LocalFileSystemWithoutChmodProcesses}.
   */
  public static Configuration hadoopConfiguration() {
    Configuration configuration = new Configuration();
    configuration.set(
        "fs.file.impl", LocalFileSystemWithoutChmodProcesses.class.getName(), "LakeOps");
    return configuration;
  }

  private static String describe(CatalogSettings settings) {
    String type =
        settings.properties().getOrDefault("type", settings.properties().get("catalog-impl"));
    String where =
        settings
            .properties()
            .getOrDefault("uri", settings.properties().getOrDefault("warehouse", ""));
    return "(" + type + (where.isEmpty() ? "" : " at " + where) + ")";
  }
}
