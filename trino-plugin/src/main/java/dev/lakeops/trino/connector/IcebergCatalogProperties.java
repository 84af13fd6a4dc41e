package dev.lakeops.trino.connector;

import static dev.lakeops.trino.connector.LakeOpsErrorCode.LAKEOPS_INVALID_CONFIGURATION;
import static java.util.Objects.requireNonNull;

import dev.lakeops.catalog.CatalogSettings;
import dev.lakeops.trino.fs.LocalSchemeFileIO;
import io.trino.spi.TrinoException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.iceberg.CatalogProperties;

/**
 * Turns the {@code lakeops} catalog file into Iceberg Java catalog properties: the Trino keys map
 * onto Iceberg's ({@code iceberg.jdbc-catalog.connection-url} to {@code uri}, ...), then every
 * {@code lakeops.iceberg.<key>} is added as {@code <key>}, overriding what was mapped.
 */
public final class IcebergCatalogProperties {
  /** Prefix of Iceberg catalog properties passed through verbatim. */
  public static final String PASS_THROUGH_PREFIX = "lakeops.iceberg.";

  /** Iceberg's FileIO for {@code s3://} locations, used when {@code fs.native-s3.enabled=true}. */
  static final String S3_FILE_IO = "org.apache.iceberg.aws.s3.S3FileIO";

  /** The default of Trino's {@code iceberg.jdbc-catalog.schema-version}. */
  static final String TRINO_JDBC_SCHEMA_VERSION = "V1";

  private IcebergCatalogProperties() {}

  /**
   * Splits the catalog file: pass-through keys (prefix removed) and the rest, for the config bean.
   */
  public static Map<String, String> passThrough(Map<String, String> catalogFile) {
    Map<String, String> values = new LinkedHashMap<>();
    catalogFile.forEach(
        (key, value) -> {
          if (key.startsWith(PASS_THROUGH_PREFIX)) {
            values.put(key.substring(PASS_THROUGH_PREFIX.length()), value);
          }
        });
    return values;
  }

  public static Map<String, String> withoutPassThrough(Map<String, String> catalogFile) {
    Map<String, String> values = new LinkedHashMap<>(catalogFile);
    values.keySet().removeIf(key -> key.startsWith(PASS_THROUGH_PREFIX));
    return values;
  }

  public static CatalogSettings settings(
      String trinoCatalogName,
      LakeOpsConfig config,
      RestCatalogSecurityConfig restSecurity,
      S3FileSystemConfig s3,
      Map<String, String> passThrough) {
    requireNonNull(config, "config is null");
    requireNonNull(restSecurity, "restSecurity is null");
    requireNonNull(s3, "s3 is null");
    requireNonNull(passThrough, "passThrough is null");
    Map<String, String> properties = new LinkedHashMap<>();
    String name = trinoCatalogName;
    switch (config.getCatalogType()) {
      case JDBC -> {
        properties.put(CatalogProperties.CATALOG_IMPL, "org.apache.iceberg.jdbc.JdbcCatalog");
        properties.put(
            CatalogProperties.URI,
            required(
                config.getJdbcConnectionUrl().orElse(null),
                "iceberg.jdbc-catalog.connection-url",
                "JDBC"));
        name =
            required(
                config.getJdbcCatalogName().orElse(null),
                "iceberg.jdbc-catalog.catalog-name",
                "JDBC");
        config.getJdbcConnectionUser().ifPresent(user -> properties.put("jdbc.user", user));
        config
            .getJdbcConnectionPassword()
            .ifPresent(password -> properties.put("jdbc.password", password));
        config
            .getJdbcDefaultWarehouseDir()
            .ifPresent(dir -> properties.put(CatalogProperties.WAREHOUSE_LOCATION, dir));
        config.getJdbcDriverClass().ifPresent(IcebergCatalogProperties::loadDriver);
        // Trino's Iceberg connector defaults to V1 (view support): the same, so both see one schema
        properties.put(
            "jdbc.schema-version", config.getJdbcSchemaVersion().orElse(TRINO_JDBC_SCHEMA_VERSION));
        config
            .getJdbcRetryableStatusCodes()
            .ifPresent(codes -> properties.put("retryable_status_codes", codes));
      }
      case REST -> {
        properties.put(CatalogProperties.CATALOG_IMPL, "org.apache.iceberg.rest.RESTCatalog");
        properties.put(
            CatalogProperties.URI,
            required(config.getRestCatalogUri().orElse(null), "iceberg.rest-catalog.uri", "REST"));
        config
            .getRestCatalogWarehouse()
            .ifPresent(
                warehouse -> properties.put(CatalogProperties.WAREHOUSE_LOCATION, warehouse));
        properties.putAll(RestCatalogSecurityProperties.of(restSecurity, s3.getRegion()));
      }
      default -> {
        if (!passThrough.containsKey(CatalogProperties.CATALOG_IMPL)
            && !passThrough.containsKey("type")) {
          throw new TrinoException(
              LAKEOPS_INVALID_CONFIGURATION,
              "iceberg.catalog.type="
                  + config.getCatalogType()
                  + " is not supported by the lakeops connector: use "
                  + Arrays.stream(CatalogType.values())
                      .filter(CatalogType::isSupported)
                      .map(Enum::name)
                      .collect(Collectors.joining(" or "))
                  + " (a catalog both Trino's Iceberg connector and Iceberg Java can reach), or set "
                  + PASS_THROUGH_PREFIX
                  + "catalog-impl and its properties");
        }
      }
    }
    if (s3.isNativeS3Enabled()) {
      properties.put(CatalogProperties.FILE_IO_IMPL, S3_FILE_IO);
    }
    s3.getEndpoint().ifPresent(endpoint -> properties.put("s3.endpoint", endpoint));
    s3.getRegion().ifPresent(region -> properties.put("client.region", region));
    if (s3.isPathStyleAccess()) {
      properties.put("s3.path-style-access", "true");
    }
    s3.getAwsAccessKey().ifPresent(key -> properties.put("s3.access-key-id", key));
    s3.getAwsSecretKey().ifPresent(key -> properties.put("s3.secret-access-key", key));
    if (config.isLocalFileSystemEnabled()) {
      properties.put(CatalogProperties.FILE_IO_IMPL, LocalSchemeFileIO.class.getName());
      properties.put(LocalSchemeFileIO.ROOT_PROPERTY, config.getLocalLocation().orElseThrow());
    }
    properties.putAll(passThrough);
    return new CatalogSettings(name, properties);
  }

  private static String required(String value, String property, String type) {
    if (value == null || value.isBlank()) {
      throw new TrinoException(
          LAKEOPS_INVALID_CONFIGURATION,
          property + " is required when iceberg.catalog.type=" + type);
    }
    return value;
  }

  private static void loadDriver(String driverClass) {
    try {
      Class.forName(driverClass, true, IcebergCatalogProperties.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new TrinoException(
          LAKEOPS_INVALID_CONFIGURATION,
          "iceberg.jdbc-catalog.driver-class="
              + driverClass
              + " is not in plugin/lakeops/: add the driver jar there",
          e);
    }
  }
}
