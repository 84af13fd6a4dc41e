package dev.lakeops.catalog;

import static java.util.Objects.requireNonNull;

import dev.lakeops.text.EditDistance;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;

/** Loads a table by {@code namespace.table}, suggesting close names when it does not exist. */
public final class TableResolver {
  private static final int MAX_SUGGESTIONS = 3;
  private static final int MAX_DISTANCE = 3;

  private final Catalog catalog;

  public TableResolver(Catalog catalog) {
    this.catalog = requireNonNull(catalog, "catalog is null");
  }

  public Table load(String name) {
    requireNonNull(name, "name is null");
    if (!name.contains(".")) {
      throw new IllegalArgumentException(
          "Table name '" + name + "' has no namespace: use namespace.table, e.g. db." + name);
    }
    TableIdentifier identifier = TableIdentifier.parse(name);
    try {
      return catalog.loadTable(identifier);
    } catch (NoSuchTableException e) {
      List<String> suggestions = suggestions(identifier);
      throw new IllegalArgumentException(
          "Table '"
              + name
              + "' not found in catalog '"
              + catalog.name()
              + "'"
              + (suggestions.isEmpty()
                  ? ""
                  : "; did you mean " + String.join(", ", suggestions) + "?"),
          e);
    }
  }

  private List<String> suggestions(TableIdentifier wanted) {
    List<TableIdentifier> known = new ArrayList<>();
    for (Namespace namespace : namespaces(wanted.namespace())) {
      try {
        known.addAll(catalog.listTables(namespace));
      } catch (NoSuchNamespaceException | UnsupportedOperationException ignored) {
        // a namespace that vanished or a catalog that cannot list: nothing to suggest from it
      }
    }
    String target = wanted.toString();
    return known.stream()
        .map(TableIdentifier::toString)
        .filter(candidate -> EditDistance.between(candidate, target) <= MAX_DISTANCE)
        .sorted(Comparator.comparingInt(candidate -> EditDistance.between(candidate, target)))
        .limit(MAX_SUGGESTIONS)
        .toList();
  }

  private List<Namespace> namespaces(Namespace wanted) {
    if (!(catalog instanceof SupportsNamespaces namespaces)) {
      return List.of(wanted);
    }
    try {
      List<Namespace> all = new ArrayList<>(namespaces.listNamespaces());
      if (!all.contains(wanted)) {
        all.add(wanted);
      }
      return all;
    } catch (RuntimeException e) {
      return List.of(wanted);
    }
  }
}
