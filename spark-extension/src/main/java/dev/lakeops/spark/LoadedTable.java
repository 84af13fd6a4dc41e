package dev.lakeops.spark;

import static java.util.Objects.requireNonNull;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;

/** An Iceberg table together with the catalog instance that loaded it, closed together. */
record LoadedTable(Catalog catalog, Table table) implements AutoCloseable {
  LoadedTable {
    requireNonNull(catalog, "catalog is null");
    requireNonNull(table, "table is null");
  }

  @Override
  public void close() {
    closeCatalog(catalog);
  }

  static void closeCatalog(Catalog catalog) {
    if (catalog instanceof Closeable closeable) {
      try {
        closeable.close();
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot close Iceberg catalog " + catalog.name(), e);
      }
    }
  }
}
