package dev.lakeops.trino.connector;

import dev.lakeops.operation.ContractDefaults;
import dev.lakeops.operation.Operations;
import dev.lakeops.unit.ByteSize;
import io.airlift.configuration.Config;
import io.airlift.configuration.ConfigDescription;
import io.airlift.configuration.ConfigSecuritySensitive;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.util.Optional;

/**
 * The {@code lakeops} catalog file. Keys shared with Trino's Iceberg connector have the same names
 * there, so the Iceberg catalog's lines can be copied; Iceberg catalog properties without a Trino
 * counterpart pass through as {@code lakeops.iceberg.<key>=<value>} (see {@link
 * IcebergCatalogProperties}).
 */
public class LakeOpsConfig {
  /** Memory budget of one compaction when a CALL gives none. */
  public static final String DEFAULT_MEMORY_BUDGET =
      ContractDefaults.text(Operations.COMPACT, Operations.MEMORY_BUDGET).orElseThrow();

  /** Procedure runs {@code lakeops.system.runs} keeps, the oldest dropped first. */
  public static final int DEFAULT_RUN_HISTORY_SIZE = 1_000;

  private CatalogType catalogType;
  private String jdbcConnectionUrl;
  private String jdbcConnectionUser;
  private String jdbcConnectionPassword;
  private String jdbcCatalogName;
  private String jdbcDefaultWarehouseDir;
  private String jdbcDriverClass;
  private String jdbcSchemaVersion;
  private String jdbcRetryableStatusCodes;
  private String restCatalogUri;
  private String restCatalogWarehouse;
  private boolean localFileSystemEnabled;
  private String localLocation;
  private String memoryBudget = DEFAULT_MEMORY_BUDGET;
  private String spillDirectory;
  private int runHistorySize = DEFAULT_RUN_HISTORY_SIZE;
  private String telemetryStore;

  @NotNull
  public CatalogType getCatalogType() {
    return catalogType;
  }

  @Config("iceberg.catalog.type")
  @ConfigDescription("Iceberg catalog type, as for Trino's Iceberg connector: JDBC or REST")
  public LakeOpsConfig setCatalogType(CatalogType catalogType) {
    this.catalogType = catalogType;
    return this;
  }

  public Optional<String> getJdbcConnectionUrl() {
    return Optional.ofNullable(jdbcConnectionUrl);
  }

  @Config("iceberg.jdbc-catalog.connection-url")
  @ConfigDescription("JDBC URL of the Iceberg JDBC catalog database")
  public LakeOpsConfig setJdbcConnectionUrl(String jdbcConnectionUrl) {
    this.jdbcConnectionUrl = jdbcConnectionUrl;
    return this;
  }

  public Optional<String> getJdbcConnectionUser() {
    return Optional.ofNullable(jdbcConnectionUser);
  }

  @Config("iceberg.jdbc-catalog.connection-user")
  public LakeOpsConfig setJdbcConnectionUser(String jdbcConnectionUser) {
    this.jdbcConnectionUser = jdbcConnectionUser;
    return this;
  }

  public Optional<String> getJdbcConnectionPassword() {
    return Optional.ofNullable(jdbcConnectionPassword);
  }

  @Config("iceberg.jdbc-catalog.connection-password")
  @ConfigSecuritySensitive
  public LakeOpsConfig setJdbcConnectionPassword(String jdbcConnectionPassword) {
    this.jdbcConnectionPassword = jdbcConnectionPassword;
    return this;
  }

  public Optional<String> getJdbcCatalogName() {
    return Optional.ofNullable(jdbcCatalogName);
  }

  @Config("iceberg.jdbc-catalog.catalog-name")
  @ConfigDescription(
      "Iceberg JDBC catalog name (the catalog_name column), as for Trino's Iceberg connector")
  public LakeOpsConfig setJdbcCatalogName(String jdbcCatalogName) {
    this.jdbcCatalogName = jdbcCatalogName;
    return this;
  }

  public Optional<String> getJdbcDefaultWarehouseDir() {
    return Optional.ofNullable(jdbcDefaultWarehouseDir);
  }

  @Config("iceberg.jdbc-catalog.default-warehouse-dir")
  public LakeOpsConfig setJdbcDefaultWarehouseDir(String jdbcDefaultWarehouseDir) {
    this.jdbcDefaultWarehouseDir = jdbcDefaultWarehouseDir;
    return this;
  }

  public Optional<String> getJdbcDriverClass() {
    return Optional.ofNullable(jdbcDriverClass);
  }

  @Config("iceberg.jdbc-catalog.driver-class")
  public LakeOpsConfig setJdbcDriverClass(String jdbcDriverClass) {
    this.jdbcDriverClass = jdbcDriverClass;
    return this;
  }

  public Optional<String> getJdbcSchemaVersion() {
    return Optional.ofNullable(jdbcSchemaVersion);
  }

  @Config("iceberg.jdbc-catalog.schema-version")
  @ConfigDescription(
      "Schema version of the JDBC catalog's tables, V0 or V1, as for Trino's Iceberg connector")
  public LakeOpsConfig setJdbcSchemaVersion(String jdbcSchemaVersion) {
    this.jdbcSchemaVersion = jdbcSchemaVersion;
    return this;
  }

  public Optional<String> getJdbcRetryableStatusCodes() {
    return Optional.ofNullable(jdbcRetryableStatusCodes);
  }

  @Config("iceberg.jdbc-catalog.retryable-status-codes")
  @ConfigDescription("SQL states on which the JDBC catalog retries, comma-separated")
  public LakeOpsConfig setJdbcRetryableStatusCodes(String jdbcRetryableStatusCodes) {
    this.jdbcRetryableStatusCodes = jdbcRetryableStatusCodes;
    return this;
  }

  public Optional<String> getRestCatalogUri() {
    return Optional.ofNullable(restCatalogUri);
  }

  @Config("iceberg.rest-catalog.uri")
  public LakeOpsConfig setRestCatalogUri(String restCatalogUri) {
    this.restCatalogUri = restCatalogUri;
    return this;
  }

  public Optional<String> getRestCatalogWarehouse() {
    return Optional.ofNullable(restCatalogWarehouse);
  }

  @Config("iceberg.rest-catalog.warehouse")
  public LakeOpsConfig setRestCatalogWarehouse(String restCatalogWarehouse) {
    this.restCatalogWarehouse = restCatalogWarehouse;
    return this;
  }

  public boolean isLocalFileSystemEnabled() {
    return localFileSystemEnabled;
  }

  @Config("fs.local.enabled")
  @ConfigDescription("Resolve Trino's local:// file locations under local.location, as Trino does")
  public LakeOpsConfig setLocalFileSystemEnabled(boolean localFileSystemEnabled) {
    this.localFileSystemEnabled = localFileSystemEnabled;
    return this;
  }

  public Optional<String> getLocalLocation() {
    return Optional.ofNullable(localLocation);
  }

  @Config("local.location")
  @ConfigDescription("Root directory of Trino's local:// file system")
  public LakeOpsConfig setLocalLocation(String localLocation) {
    this.localLocation = localLocation;
    return this;
  }

  @NotNull
  public String getMemoryBudget() {
    return memoryBudget;
  }

  @Config("lakeops.memory-budget")
  @ConfigDescription("Memory budget of one compaction run when the CALL gives none, e.g. 256MB")
  public LakeOpsConfig setMemoryBudget(String memoryBudget) {
    this.memoryBudget = memoryBudget;
    return this;
  }

  public Optional<String> getSpillDirectory() {
    return Optional.ofNullable(spillDirectory);
  }

  @Config("lakeops.spill-directory")
  @ConfigDescription("Where sort and zorder compactions spill sorted runs; default java.io.tmpdir")
  public LakeOpsConfig setSpillDirectory(String spillDirectory) {
    this.spillDirectory = spillDirectory;
    return this;
  }

  @Min(0)
  public int getRunHistorySize() {
    return runHistorySize;
  }

  @Config("lakeops.run-history-size")
  @ConfigDescription(
      "Procedure runs this coordinator keeps for lakeops.system.runs (in memory; 0 keeps none)")
  public LakeOpsConfig setRunHistorySize(int runHistorySize) {
    this.runHistorySize = runHistorySize;
    return this;
  }

  public Optional<String> getTelemetryStore() {
    return Optional.ofNullable(telemetryStore);
  }

  @Config("lakeops.telemetry.store")
  @ConfigSecuritySensitive
  @ConfigDescription(
      "Store of the run ledger (the telemetry store): sqlite:<path> or jdbc:postgresql://...; procedure runs are"
          + " recorded there and lakeops.system.runs reads it. Unset: runs are kept in memory only")
  public LakeOpsConfig setTelemetryStore(String telemetryStore) {
    this.telemetryStore =
        telemetryStore == null || telemetryStore.isBlank() ? null : telemetryStore.strip();
    return this;
  }

  @AssertTrue(message = "lakeops.memory-budget must be a size such as 256MB or 2GB")
  public boolean isMemoryBudgetValid() {
    try {
      ByteSize.parse(memoryBudget);
      return true;
    } catch (RuntimeException e) {
      return memoryBudget == null;
    }
  }

  @AssertTrue(message = "local.location is required when fs.local.enabled=true")
  public boolean isLocalLocationPresentWhenEnabled() {
    return !localFileSystemEnabled || localLocation != null;
  }
}
