package dev.lakeops.maintain.files;

import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.util.PropertyUtil;

/** Reaches a table's metadata and checks the rules every destructive operation shares. */
public final class TableOperationsAccess {
  private TableOperationsAccess() {}

  public static TableOperations operations(Table table) {
    if (table instanceof HasTableOperations withOperations) {
      return withOperations.operations();
    }
    throw new IllegalArgumentException(
        "Table "
            + table.name()
            + " ("
            + table.getClass().getSimpleName()
            + ") exposes no table metadata; maintenance needs a catalog table");
  }

  /** The freshest committed metadata. */
  public static TableMetadata refresh(Table table) {
    return operations(table).refresh();
  }

  /** Fails when {@code gc.enabled} is false: the table's files may belong to other tables too. */
  public static void requireGarbageCollection(Table table, String operation) {
    boolean enabled =
        PropertyUtil.propertyAsBoolean(
            table.properties(), TableProperties.GC_ENABLED, TableProperties.GC_ENABLED_DEFAULT);
    if (!enabled) {
      throw new IllegalArgumentException(
          "Cannot "
              + operation
              + " of "
              + table.name()
              + ": table property "
              + TableProperties.GC_ENABLED
              + " is false (its files may be shared with other tables); set "
              + TableProperties.GC_ENABLED
              + "=true only if they are not");
    }
  }
}
