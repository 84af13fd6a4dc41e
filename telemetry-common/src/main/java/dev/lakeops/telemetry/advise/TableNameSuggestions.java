package dev.lakeops.telemetry.advise;

import static java.util.Objects.requireNonNull;

import dev.lakeops.telemetry.event.TableName;
import dev.lakeops.text.EditDistance;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Orders table names by how close they are to a wanted one: the edit distance between their {@code
 * namespace.table} parts (ignoring case), then between their full names, then by name.
 */
final class TableNameSuggestions {
  private TableNameSuggestions() {}

  static List<TableName> closestFirst(TableName wanted, List<TableName> names, int limit) {
    requireNonNull(wanted, "wanted is null");
    requireNonNull(names, "names is null");
    String wantedShort = shortName(wanted);
    String wantedFull = wanted.toString().toLowerCase(Locale.ROOT);
    return names.stream()
        .sorted(
            Comparator.<TableName>comparingInt(
                    name -> EditDistance.between(shortName(name), wantedShort))
                .thenComparingInt(
                    name ->
                        EditDistance.between(name.toString().toLowerCase(Locale.ROOT), wantedFull))
                .thenComparing(TableName::toString))
        .limit(limit)
        .toList();
  }

  private static String shortName(TableName name) {
    return (name.namespace() + "." + name.table()).toLowerCase(Locale.ROOT);
  }
}
