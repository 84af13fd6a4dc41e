package dev.lakeops.flink;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Type;

/**
 * Turns the partitions a stream wrote into the core's {@code where} filter, e.g. {@code (category =
 * 'a') OR (category = 'b')}. Only identity partitions of the current spec map back to column
 * predicates exactly; for anything else (other transforms, old specs, unusual types or names) there
 * is no filter and the core plans the whole table, which is still correct, only slower to plan.
 */
final class PartitionFilters {
  private static final Pattern PLAIN_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private PartitionFilters() {}

  /** The filter naming {@code partitions}; empty means "the whole table". */
  static Optional<String> whereFor(
      Table table, Set<PartitionValues> partitions, int maxPartitions) {
    PartitionSpec spec = table.spec();
    if (spec.isUnpartitioned() || partitions.isEmpty() || partitions.size() > maxPartitions) {
      return Optional.empty();
    }
    List<String> disjuncts = new ArrayList<>();
    for (PartitionValues partition : partitions) {
      if (partition.specId() != spec.specId()) {
        return Optional.empty();
      }
      Optional<String> conjunction = conjunction(table, spec, partition);
      if (conjunction.isEmpty()) {
        return Optional.empty();
      }
      disjuncts.add("(" + conjunction.get() + ")");
    }
    disjuncts.sort(String::compareTo);
    return Optional.of(String.join(" OR ", disjuncts));
  }

  private static Optional<String> conjunction(
      Table table, PartitionSpec spec, PartitionValues partition) {
    List<String> terms = new ArrayList<>();
    for (int index = 0; index < spec.fields().size(); index++) {
      PartitionField field = spec.fields().get(index);
      if (!field.transform().isIdentity()) {
        return Optional.empty();
      }
      String column = table.schema().findColumnName(field.sourceId());
      if (column == null || !PLAIN_NAME.matcher(column).matches()) {
        return Optional.empty();
      }
      Object value = partition.values().get(index);
      if (value == null) {
        terms.add(column + " IS NULL");
        continue;
      }
      Optional<String> literal = literal(table.schema().findType(field.sourceId()), value);
      if (literal.isEmpty()) {
        return Optional.empty();
      }
      terms.add(column + " = " + literal.get());
    }
    return Optional.of(String.join(" AND ", terms));
  }

  private static Optional<String> literal(Type type, Object value) {
    return switch (type.typeId()) {
      case STRING -> Optional.of(quote(value.toString()));
      case INTEGER, LONG -> Optional.of(value.toString());
      case DATE -> Optional.of(quote(LocalDate.ofEpochDay((Integer) value).toString()));
      default -> Optional.empty();
    };
  }

  private static String quote(String text) {
    return "'" + text.replace("'", "''") + "'";
  }
}
