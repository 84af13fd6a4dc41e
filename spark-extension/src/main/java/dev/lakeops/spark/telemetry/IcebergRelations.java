package dev.lakeops.spark.telemetry;

import dev.lakeops.spark.iceberg.IcebergClassNames;
import dev.lakeops.telemetry.event.TableIdentity;
import dev.lakeops.telemetry.event.TableName;
import java.lang.reflect.Method;
import java.util.Optional;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation;

/**
 * Recognises relations over Iceberg tables (Iceberg's Spark {@code SparkTable}, metadata tables
 * excluded) and names them as the telemetry store does: Spark catalog, namespace, table; with the
 * table's UUID and location, by which the advisor matches them to the table whatever the catalog is
 * called.
 *
 * <p>Iceberg's Spark classes come from the user's Iceberg runtime jar, which this module must not
 * link against (the shaded jar relocates its own Iceberg), so they are recognised by name.
 */
final class IcebergRelations {
  private static final String SPARK_TABLE =
      IcebergClassNames.USER_PACKAGE + "spark.source.SparkTable";
  private static final String METADATA_TABLE = IcebergClassNames.USER_PACKAGE + "BaseMetadataTable";

  private IcebergRelations() {}

  /** The table's name when {@code relation} reads a data table of an Iceberg catalog. */
  static Optional<TableName> tableName(DataSourceV2Relation relation) {
    Table table = relation.table();
    if (!extendsClass(table.getClass(), SPARK_TABLE) || isMetadataTable(table)) {
      return Optional.empty();
    }
    if (relation.catalog().isEmpty() || relation.identifier().isEmpty()) {
      return Optional.empty();
    }
    Identifier identifier = relation.identifier().get();
    if (identifier.namespace().length == 0) {
      return Optional.empty();
    }
    return Optional.of(
        TableName.of(
            relation.catalog().get().name(),
            String.join(".", identifier.namespace()),
            identifier.name()));
  }

  /**
   * The Iceberg table's UUID and location, read from the table object the relation holds (the
   * metadata Spark loaded for the query); unknown when they cannot be read.
   */
  static TableIdentity identity(DataSourceV2Relation relation) {
    try {
      Object table = relation.table().getClass().getMethod("table").invoke(relation.table());
      if (table == null) {
        return TableIdentity.unknown();
      }
      Object uuid = table.getClass().getMethod("uuid").invoke(table);
      Object location = table.getClass().getMethod("location").invoke(table);
      return TableIdentity.of(
          uuid == null ? null : uuid.toString(), location == null ? null : location.toString());
    } catch (ReflectiveOperationException | RuntimeException e) {
      return TableIdentity.unknown();
    }
  }

  private static boolean isMetadataTable(Table sparkTable) {
    try {
      Method icebergTable = sparkTable.getClass().getMethod("table");
      Object table = icebergTable.invoke(sparkTable);
      return table != null && extendsClass(table.getClass(), METADATA_TABLE);
    } catch (ReflectiveOperationException e) {
      return false;
    }
  }

  static boolean extendsClass(Class<?> type, String className) {
    for (Class<?> current = type; current != null; current = current.getSuperclass()) {
      if (current.getName().equals(className)) {
        return true;
      }
    }
    return false;
  }
}
