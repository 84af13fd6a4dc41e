package dev.lakeops.trigger;

import dev.lakeops.health.PartitionHealth;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Turns partitions into a row filter in {@code CompactionRequest.where} syntax: identity fields
 * become equalities, year/month/day/hour fields ranges over their source column. A field of any
 * other transform is left out (the filter then selects a superset); a partition with no usable
 * field makes the filter select the whole table (empty).
 */
final class PartitionFilter {
  private PartitionFilter() {}

  static Optional<String> where(
      Map<Integer, PartitionSpec> specs, List<PartitionHealth> partitions) {
    List<String> disjuncts = new ArrayList<>();
    for (PartitionHealth partition : partitions) {
      PartitionSpec spec = specs.get(partition.specId());
      if (spec == null || spec.isUnpartitioned()) {
        return Optional.empty();
      }
      List<String> conjuncts = new ArrayList<>();
      for (int index = 0; index < spec.fields().size(); index++) {
        predicate(spec, spec.fields().get(index), partition.values().get(index))
            .ifPresent(conjuncts::add);
      }
      if (conjuncts.isEmpty()) {
        return Optional.empty();
      }
      disjuncts.add(
          conjuncts.size() == 1 ? conjuncts.get(0) : "(" + String.join(" AND ", conjuncts) + ")");
    }
    if (disjuncts.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(String.join(" OR ", disjuncts));
  }

  private static Optional<String> predicate(
      PartitionSpec spec, PartitionField field, Object value) {
    Types.NestedField source = spec.schema().findField(field.sourceId());
    if (source == null) {
      return Optional.empty();
    }
    String column = "\"" + spec.schema().findColumnName(field.sourceId()) + "\"";
    String transform = field.transform().toString();
    if (transform.equals("identity")) {
      if (value == null) {
        return Optional.of(column + " IS NULL");
      }
      return literal(source.type(), value).map(literal -> column + " = " + literal);
    }
    if (value == null) {
      return Optional.empty();
    }
    int ordinal = ((Number) value).intValue();
    LocalDateTime start =
        switch (transform) {
          case "year" -> LocalDateTime.of(1970 + ordinal, 1, 1, 0, 0);
          case "month" -> LocalDateTime.of(1970, 1, 1, 0, 0).plusMonths(ordinal);
          case "day" -> LocalDateTime.of(1970, 1, 1, 0, 0).plusDays(ordinal);
          case "hour" -> LocalDateTime.of(1970, 1, 1, 0, 0).plusHours(ordinal);
          default -> null;
        };
    if (start == null) {
      return Optional.empty();
    }
    LocalDateTime end =
        switch (transform) {
          case "year" -> start.plusYears(1);
          case "month" -> start.plusMonths(1);
          case "day" -> start.plusDays(1);
          default -> start.plusHours(1);
        };
    Optional<String> from = timeLiteral(source.type(), start);
    Optional<String> to = timeLiteral(source.type(), end);
    if (from.isEmpty() || to.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        "(" + column + " >= " + from.get() + " AND " + column + " < " + to.get() + ")");
  }

  private static Optional<String> literal(Type type, Object value) {
    return switch (type.typeId()) {
      case STRING -> Optional.of("'" + value.toString().replace("'", "''") + "'");
      case INTEGER, LONG, BOOLEAN -> Optional.of(value.toString());
      case DATE -> Optional.of("'" + LocalDate.ofEpochDay(((Number) value).longValue()) + "'");
      case TIMESTAMP ->
          Optional.of(
              timestampLiteral(
                  (Types.TimestampType) type, microsToDateTime(((Number) value).longValue())));
      default -> Optional.empty();
    };
  }

  private static Optional<String> timeLiteral(Type type, LocalDateTime time) {
    return switch (type.typeId()) {
      case DATE -> Optional.of("'" + time.toLocalDate() + "'");
      case TIMESTAMP -> Optional.of(timestampLiteral((Types.TimestampType) type, time));
      default -> Optional.empty();
    };
  }

  private static String timestampLiteral(Types.TimestampType type, LocalDateTime time) {
    String text = time.truncatedTo(ChronoUnit.MICROS).toString();
    if (text.length() == 16) {
      text = text + ":00";
    }
    return "'" + text + (type.shouldAdjustToUTC() ? "+00:00" : "") + "'";
  }

  private static LocalDateTime microsToDateTime(long micros) {
    return LocalDateTime.ofEpochSecond(
        Math.floorDiv(micros, 1_000_000L),
        (int) Math.floorMod(micros, 1_000_000L) * 1000,
        ZoneOffset.UTC);
  }
}
