package dev.lakeops.spark;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A table named in a session: the Spark catalog it lives in, and its namespace and name inside it.
 *
 * @param catalog the Spark catalog name, as in {@code spark.sql.catalog.<catalog>}
 * @param namespace the namespace levels inside that catalog
 * @param table the table's name
 */
record SessionTableName(String catalog, List<String> namespace, String table) {
  SessionTableName {
    requireNonNull(catalog, "catalog is null");
    namespace = List.copyOf(requireNonNull(namespace, "namespace is null"));
    requireNonNull(table, "table is null");
  }

  /** The full name with every part back-quoted, for Spark SQL and {@code refreshTable}. */
  String quoted() {
    return Stream.concat(Stream.concat(Stream.of(catalog), namespace.stream()), Stream.of(table))
        .map(part -> "`" + part.replace("`", "``") + "`")
        .collect(Collectors.joining("."));
  }

  @Override
  public String toString() {
    return Stream.concat(Stream.concat(Stream.of(catalog), namespace.stream()), Stream.of(table))
        .collect(Collectors.joining("."));
  }
}
