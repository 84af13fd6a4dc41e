package dev.lakeops.spark.telemetry;

import static java.util.Objects.requireNonNull;

import dev.lakeops.telemetry.event.TableName;

/** A top-level column of an Iceberg table, as a query plan's attribute resolves to it. */
record TableColumn(TableName table, String column) {
  TableColumn {
    requireNonNull(table, "table is null");
    requireNonNull(column, "column is null");
  }
}
