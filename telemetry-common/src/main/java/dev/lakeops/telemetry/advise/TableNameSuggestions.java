package dev.lakeops.telemetry.advise;

import static java.util.Objects.requireNonNull;

import dev.lakeops.telemetry.event.TableName;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Orders table names by how close they are to a wanted one: the edit distance between their
 * {@code namespace.table} parts (ignoring case), then between their full names, then by name.
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
            Comparator.<TableName>comparingInt(name -> editDistance(shortName(name), wantedShort))
                .thenComparingInt(name -> editDistance(name.toString().toLowerCase(Locale.ROOT), wantedFull))
                .thenComparing(TableName::toString))
        .limit(limit)
        .toList();
  }

  private static String shortName(TableName name) {
    return (name.namespace() + "." + name.table()).toLowerCase(Locale.ROOT);
  }

  /** Levenshtein distance. */
  static int editDistance(String left, String right) {
    int[] previous = new int[right.length() + 1];
    int[] current = new int[right.length() + 1];
    for (int column = 0; column <= right.length(); column++) {
      previous[column] = column;
    }
    for (int row = 1; row <= left.length(); row++) {
      current[0] = row;
      for (int column = 1; column <= right.length(); column++) {
        int substitution = left.charAt(row - 1) == right.charAt(column - 1) ? 0 : 1;
        current[column] =
            Math.min(Math.min(current[column - 1] + 1, previous[column] + 1), previous[column - 1] + substitution);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[right.length()];
  }
}
