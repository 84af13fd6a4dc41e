package dev.lakeops.catalog;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.Catalog;

/** Builds an Iceberg catalog from settings, with a one-line error when that is impossible. */
public final class CatalogConnector {
  private static final String STREAM_BUFFER_SIZE = "io.file.buffer.size";

  /**
   * Buffer of Hadoop's file streams. Hadoop's default, 4 KB, makes its checksummed local file
   * system write a file in 4.5 KB {@code write} calls (one per nine 512-byte checksum chunks): a 2
   * GB rewrite spent about 2.5 s more system time in them.
   */
  static final int STREAM_BUFFER_BYTES = 256 * 1024;

  /**
   * Iceberg's S3 client keeps the AWS SDK's pool of 50 connections unless told otherwise; a rewrite
   * keeps up to {@code io.max-concurrent-requests} (64) reads in flight beside its writes and
   * commits, so the pool is larger unless the catalog properties set it.
   */
  static final String S3_MAX_CONNECTIONS = "http-client.apache.max-connections";

  static final String S3_MAX_CONNECTIONS_DEFAULT = "128";

  private CatalogConnector() {}

  public static Catalog connect(CatalogSettings settings) {
    return connect(settings, hadoopConfiguration());
  }

  /** Builds the catalog with {@code configuration} as its Hadoop configuration. */
  public static Catalog connect(CatalogSettings settings, Configuration configuration) {
    requireNonNull(settings, "settings is null");
    requireNonNull(configuration, "configuration is null");
    try {
      Map<String, String> properties = new LinkedHashMap<>(settings.properties());
      properties.putIfAbsent(S3_MAX_CONNECTIONS, S3_MAX_CONNECTIONS_DEFAULT);
      return CatalogUtil.buildIcebergCatalog(settings.name(), properties, configuration);
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
   * with {@code file:} served by {@link LocalFileSystemWithoutChmodProcesses}, and its streams'
   * buffer ({@code io.file.buffer.size}) {@link #STREAM_BUFFER_BYTES} unless a site file sets it.
   */
  public static Configuration hadoopConfiguration() {
    Configuration configuration = new Configuration();
    configuration.set(
        "fs.file.impl", LocalFileSystemWithoutChmodProcesses.class.getName(), "LakeOps");
    String[] bufferSources = configuration.getPropertySources(STREAM_BUFFER_SIZE);
    if (bufferSources == null || Arrays.asList(bufferSources).equals(List.of("core-default.xml"))) {
      configuration.set(STREAM_BUFFER_SIZE, String.valueOf(STREAM_BUFFER_BYTES), "LakeOps");
    }
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
