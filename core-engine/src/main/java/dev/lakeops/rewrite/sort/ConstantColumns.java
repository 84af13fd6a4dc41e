package dev.lakeops.rewrite.sort;

import static java.util.Objects.requireNonNull;

import dev.lakeops.plan.ColumnSummary;
import dev.lakeops.plan.FileGroup;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.IdentityPartitionConverters;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * The columns that hold one value in every row of a file group, proven before anything is read, so
 * a sort can leave them out of its batches, runs and merges and fill them in as files are written.
 * A column is constant when it is the source of an identity partition field (its value is the
 * group's partition value, null included), or when every data file's metrics show it without nulls
 * and with equal lower and upper bounds, the same in every file, for types whose bounds are exact
 * (integers, dates, times, timestamps, booleans: never truncated, no NaN). Deletes only remove
 * rows, so they cannot break a constant. Columns the sort key reads are never taken out.
 */
final class ConstantColumns {
  private static final Set<Type.TypeID> EXACT_BOUND_TYPES =
      Set.of(
          Type.TypeID.BOOLEAN,
          Type.TypeID.INTEGER,
          Type.TypeID.LONG,
          Type.TypeID.DATE,
          Type.TypeID.TIME,
          Type.TypeID.TIMESTAMP);

  private final Map<Integer, Optional<Object>> values;

  private ConstantColumns(Map<Integer, Optional<Object>> values) {
    this.values = Map.copyOf(values);
  }

  /** Whether {@code column}'s bounds are exact, so equal bounds prove one value. */
  static boolean hasExactBounds(Types.NestedField column) {
    return EXACT_BOUND_TYPES.contains(column.type().typeId());
  }

  static ConstantColumns none() {
    return new ConstantColumns(Map.of());
  }

  /**
   * The constant columns of {@code writeSchema} in {@code group}, written with {@code spec},
   * leaving out {@code keyFieldIds}.
   */
  static ConstantColumns of(
      Schema writeSchema, PartitionSpec spec, FileGroup group, Set<Integer> keyFieldIds) {
    requireNonNull(writeSchema, "writeSchema is null");
    requireNonNull(spec, "spec is null");
    requireNonNull(group, "group is null");
    requireNonNull(keyFieldIds, "keyFieldIds is null");
    Map<Integer, Optional<Object>> values = new HashMap<>();
    List<PartitionField> partitionFields = spec.fields();
    for (int position = 0; position < partitionFields.size(); position++) {
      PartitionField field = partitionFields.get(position);
      Types.NestedField column = writeSchema.findField(field.sourceId());
      if (field.transform().isIdentity()
          && column != null
          && writeSchema.columns().contains(column)) {
        Object internal = group.partition().get(position, Object.class);
        values.put(column.fieldId(), Optional.ofNullable(internal));
      }
    }
    for (Types.NestedField column : writeSchema.columns()) {
      if (!values.containsKey(column.fieldId())
          && EXACT_BOUND_TYPES.contains(column.type().typeId())) {
        ColumnSummary summary = group.columnSummary(column.fieldId(), column.type());
        if (summary.singleValue()) {
          summary
              .lowerValue(column.type())
              .ifPresent(value -> values.put(column.fieldId(), Optional.of(value)));
        }
      }
    }
    keyFieldIds.forEach(values::remove);
    return new ConstantColumns(values);
  }

  boolean isEmpty() {
    return values.isEmpty();
  }

  boolean contains(int fieldId) {
    return values.containsKey(fieldId);
  }

  /**
   * The value of constant column {@code fieldId} as an Iceberg generic value (what a {@code
   * ColumnTransfer} takes), or {@code null} when every row holds null.
   */
  Object genericValue(Types.NestedField column) {
    Optional<Object> internal = values.get(column.fieldId());
    if (internal == null) {
      throw new IllegalArgumentException("Column " + column.name() + " is not constant");
    }
    return internal
        .map(value -> IdentityPartitionConverters.convertConstant(column.type(), value))
        .orElse(null);
  }

  /** {@code schema} without the constant columns. */
  Schema withoutConstants(Schema schema) {
    if (values.isEmpty()) {
      return schema;
    }
    List<Types.NestedField> kept = new ArrayList<>();
    for (Types.NestedField column : schema.columns()) {
      if (!values.containsKey(column.fieldId())) {
        kept.add(column);
      }
    }
    return new Schema(kept);
  }
}
