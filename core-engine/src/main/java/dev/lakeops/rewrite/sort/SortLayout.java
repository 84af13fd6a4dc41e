package dev.lakeops.rewrite.sort;

import static java.util.Objects.requireNonNull;

import dev.lakeops.argument.InvalidArgumentException;
import dev.lakeops.plan.FileGroup;
import dev.lakeops.rewrite.WriteSchemas;
import dev.lakeops.rewrite.arrow.ArrowSchemas;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortField;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Types;

/**
 * The row order a sort or z-order compaction writes: an Iceberg sort order (the table's, or one
 * given as text), or a Z-order over columns. A sort order that is one of the table's sort orders is
 * recorded on every file written ({@code sort_order_id}); any other order is not, because Iceberg
 * can only record orders the table knows and adding one would change how every writer of the table
 * sorts.
 */
public final class SortLayout {
  private final String description;
  private final Optional<SortOrder> order;
  private final boolean recorded;
  private final List<Integer> zorderFieldIds;

  private SortLayout(
      String description,
      Optional<SortOrder> order,
      boolean recorded,
      List<Integer> zorderFieldIds) {
    this.description = description;
    this.order = order;
    this.recorded = recorded;
    this.zorderFieldIds = List.copyOf(zorderFieldIds);
  }

  /**
   * Sorts by {@code explicitOrder} when given (Iceberg sort-order syntax), else by the table's sort
   * order.
   */
  public static SortLayout sortOrder(Table table, Optional<String> explicitOrder) {
    requireNonNull(table, "table is null");
    requireNonNull(explicitOrder, "explicitOrder is null");
    checkColumnarPath(table, "sort");
    if (explicitOrder.isEmpty()) {
      SortOrder tableOrder = table.sortOrder();
      if (tableOrder.isUnsorted()) {
        throw new InvalidArgumentException(
            "Table "
                + table.name()
                + " has no sort order: pass one in {sort_order}, e.g."
                + " 'country ASC NULLS FIRST, ts DESC', or set the table's sort order");
      }
      return new SortLayout(tableOrder.toString(), Optional.of(tableOrder), true, List.of());
    }
    SortOrder parsed = SortOrderParser.parse(table.schema(), explicitOrder.get());
    for (SortOrder known : table.sortOrders().values()) {
      if (!known.isUnsorted() && known.sameOrder(parsed)) {
        return new SortLayout(explicitOrder.get(), Optional.of(known), true, List.of());
      }
    }
    return new SortLayout(explicitOrder.get(), Optional.of(parsed), false, List.of());
  }

  /**
   * Z-orders by {@code columns}: top-level columns of number, date, time, timestamp, string or
   * binary type.
   */
  public static SortLayout zorder(Table table, List<String> columns) {
    requireNonNull(table, "table is null");
    requireNonNull(columns, "columns is null");
    checkColumnarPath(table, "zorder");
    List<String> names =
        columns.stream().map(String::trim).filter(name -> !name.isEmpty()).toList();
    if (names.isEmpty()) {
      throw new InvalidArgumentException(
          "strategy zorder needs columns: pass {zorder_columns}, e.g. user_id,ts");
    }
    if (new LinkedHashSet<>(names).size() != names.size()) {
      throw new IllegalArgumentException(
          "Invalid zorder_columns '" + String.join(",", names) + "': a column is listed twice");
    }
    List<Integer> fieldIds = new ArrayList<>();
    for (String name : names) {
      Types.NestedField field = table.schema().findField(name);
      if (field == null
          || table.schema().columns().stream()
              .noneMatch(column -> column.fieldId() == field.fieldId())) {
        throw new IllegalArgumentException(
            "Invalid zorder_columns column '"
                + name
                + "': not a top-level column of "
                + table.name()
                + "; columns: "
                + table.schema().columns().stream()
                    .map(Types.NestedField::name)
                    .collect(Collectors.joining(", ")));
      }
      if (!field.type().isPrimitiveType()
          || field.type().typeId() == org.apache.iceberg.types.Type.TypeID.BOOLEAN) {
        throw new IllegalArgumentException(
            "Invalid zorder_columns column '"
                + name
                + "' ("
                + field.type()
                + "): z-order takes number, date, time,"
                + " timestamp, string or binary columns");
      }
      fieldIds.add(field.fieldId());
    }
    return new SortLayout(
        "zorder(" + String.join(", ", names) + ")", Optional.empty(), false, fieldIds);
  }

  /** The sort order id files written in this layout carry, if the order is one of the table's. */
  public OptionalInt recordedSortOrderId() {
    return recorded ? OptionalInt.of(order.orElseThrow().orderId()) : OptionalInt.empty();
  }

  public Optional<SortOrder> recordedOrder() {
    return recorded ? order : Optional.empty();
  }

  /** The column whose bounds separate sorted output files: the source of the first sort field. */
  public int leadingFieldId() {
    return order
        .map(sortOrder -> sortOrder.fields().get(0).sourceId())
        .orElseGet(() -> zorderFieldIds.get(0));
  }

  /**
   * The ids of the columns the sort key reads: the sources of the sort fields, or the z-order
   * columns.
   */
  Set<Integer> keyFieldIds() {
    return order
        .map(
            sortOrder ->
                sortOrder.fields().stream()
                    .map(SortField::sourceId)
                    .collect(Collectors.toUnmodifiableSet()))
        .orElseGet(() -> Set.copyOf(zorderFieldIds));
  }

  /**
   * The columns of {@code schema} whose statistics a sort rewrite of this layout reads, as
   * per-group summaries: the key columns (z-order value ranges) and the top-level columns whose
   * bounds can prove a column constant in a group ({@link ConstantColumns}).
   */
  public Set<Integer> summarizedFieldIds(Schema schema) {
    Set<Integer> fieldIds = new TreeSet<>(keyFieldIds());
    for (Types.NestedField column : schema.columns()) {
      if (ConstantColumns.hasExactBounds(column)) {
        fieldIds.add(column.fieldId());
      }
    }
    return Set.copyOf(fieldIds);
  }

  public boolean isZOrder() {
    return order.isEmpty();
  }

  public String description() {
    return description;
  }

  SortKeyEncoder encoderFor(Schema writeSchema, FileGroup group) {
    return order
        .<SortKeyEncoder>map(sortOrder -> new OrderKeyEncoder(writeSchema, sortOrder))
        .orElseGet(() -> ZOrderKeyEncoder.forGroup(writeSchema, zorderFieldIds, group));
  }

  private static void checkColumnarPath(Table table, String strategy) {
    Optional<String> unsupported = ArrowSchemas.unsupportedColumn(WriteSchemas.forTable(table));
    if (unsupported.isPresent()) {
      throw new InvalidArgumentException(
          "Strategy '"
              + strategy
              + "' needs a flat schema of primitive columns, but "
              + table.name()
              + " has column "
              + unsupported.get()
              + ": use {strategy} binpack for this table");
    }
  }

  @Override
  public String toString() {
    return description;
  }
}
