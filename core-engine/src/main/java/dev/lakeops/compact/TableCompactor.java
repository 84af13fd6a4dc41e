package dev.lakeops.compact;

import static java.util.Objects.requireNonNull;

import org.apache.iceberg.Table;

/**
 * The one entry point every host (CLI, Spark, Trino, Flink) calls to compact an Iceberg table.
 * Plans file groups, rewrites them under the request's memory budget and commits the result.
 */
public final class TableCompactor {
  public CompactionResult compact(Table table, CompactionRequest request) {
    requireNonNull(table, "table is null");
    requireNonNull(request, "request is null");
    throw new UnsupportedOperationException("not implemented yet");
  }
}
