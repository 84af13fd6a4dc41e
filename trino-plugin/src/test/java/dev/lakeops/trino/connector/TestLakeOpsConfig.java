package dev.lakeops.trino.connector;

import static io.airlift.configuration.testing.ConfigAssertions.assertFullMapping;
import static io.airlift.configuration.testing.ConfigAssertions.assertRecordedDefaults;
import static io.airlift.configuration.testing.ConfigAssertions.recordDefaults;

import com.google.common.collect.ImmutableMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TestLakeOpsConfig {
  @Test
  void defaults() {
    assertRecordedDefaults(
        recordDefaults(LakeOpsConfig.class)
            .setCatalogType(null)
            .setJdbcConnectionUrl(null)
            .setJdbcConnectionUser(null)
            .setJdbcConnectionPassword(null)
            .setJdbcCatalogName(null)
            .setJdbcDefaultWarehouseDir(null)
            .setJdbcDriverClass(null)
            .setJdbcSchemaVersion(null)
            .setJdbcRetryableStatusCodes(null)
            .setRestCatalogUri(null)
            .setRestCatalogWarehouse(null)
            .setLocalFileSystemEnabled(false)
            .setLocalLocation(null)
            .setMemoryBudget("256MB")
            .setSpillDirectory(null)
            .setRunHistorySize(1000)
            .setTelemetryStore(null));
  }

  @Test
  void explicitPropertyMappings() {
    Map<String, String> properties =
        ImmutableMap.<String, String>builder()
            .put("iceberg.catalog.type", "JDBC")
            .put("iceberg.jdbc-catalog.connection-url", "jdbc:postgresql://127.0.0.1:5432/test")
            .put("iceberg.jdbc-catalog.connection-user", "lakeops")
            .put("iceberg.jdbc-catalog.connection-password", "secret")
            .put("iceberg.jdbc-catalog.catalog-name", "lake")
            .put("iceberg.jdbc-catalog.default-warehouse-dir", "s3://bucket/warehouse")
            .put("iceberg.jdbc-catalog.driver-class", "org.postgresql.Driver")
            .put("iceberg.jdbc-catalog.schema-version", "V1")
            .put("iceberg.jdbc-catalog.retryable-status-codes", "57000,57P01")
            .put("iceberg.rest-catalog.uri", "http://127.0.0.1:8181")
            .put("iceberg.rest-catalog.warehouse", "warehouse")
            .put("fs.local.enabled", "true")
            .put("local.location", "/data/warehouse")
            .put("lakeops.memory-budget", "1GB")
            .put("lakeops.spill-directory", "/data/spill")
            .put("lakeops.run-history-size", "50")
            .put("lakeops.telemetry.store", "jdbc:postgresql://127.0.0.1:5432/test")
            .buildOrThrow();
    assertFullMapping(
        properties,
        new LakeOpsConfig()
            .setCatalogType(CatalogType.JDBC)
            .setJdbcConnectionUrl("jdbc:postgresql://127.0.0.1:5432/test")
            .setJdbcConnectionUser("lakeops")
            .setJdbcConnectionPassword("secret")
            .setJdbcCatalogName("lake")
            .setJdbcDefaultWarehouseDir("s3://bucket/warehouse")
            .setJdbcDriverClass("org.postgresql.Driver")
            .setJdbcSchemaVersion("V1")
            .setJdbcRetryableStatusCodes("57000,57P01")
            .setRestCatalogUri("http://127.0.0.1:8181")
            .setRestCatalogWarehouse("warehouse")
            .setLocalFileSystemEnabled(true)
            .setLocalLocation("/data/warehouse")
            .setMemoryBudget("1GB")
            .setSpillDirectory("/data/spill")
            .setRunHistorySize(50)
            .setTelemetryStore("jdbc:postgresql://127.0.0.1:5432/test"));
  }
}
