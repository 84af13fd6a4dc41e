package dev.lakeops.trino.connector;

/**
 * The Iceberg catalog types of Trino's Iceberg connector ({@code iceberg.catalog.type}). LakeOps
 * reaches the JDBC and REST catalogs with Iceberg Java directly; the others are named so that a
 * copied Iceberg catalog file gets a precise error rather than an "invalid value" one.
 */
public enum CatalogType {
  JDBC(true),
  REST(true),
  HIVE_METASTORE(false),
  GLUE(false),
  NESSIE(false),
  SNOWFLAKE(false),
  TESTING_FILE_METASTORE(false);

  private final boolean supported;

  CatalogType(boolean supported) {
    this.supported = supported;
  }

  public boolean isSupported() {
    return supported;
  }
}
