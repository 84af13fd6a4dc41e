package dev.lakeops.advise;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Comparators;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * What the data files' column metrics say about one column of the current snapshot: non-null
 * values, the distinct lower and upper bounds, and the smallest and largest bound. Read from
 * manifests only; no data file is opened.
 */
final class ColumnBounds {
  private final Types.NestedField field;
  private final Comparator<Object> comparator;
  private final Set<ByteBuffer> distinctBounds = new HashSet<>();
  private final List<Object> boundValues = new ArrayList<>();
  private long nonNullValues;
  private long files;
  private long boundedFiles;
  private boolean everyFileBounded = true;
  private Object lowest;
  private Object highest;

  @SuppressWarnings("unchecked")
  private ColumnBounds(Types.NestedField field) {
    this.field = requireNonNull(field, "field is null");
    this.comparator =
        (Comparator<Object>) (Comparator<?>) Comparators.forType(field.type().asPrimitiveType());
  }

  /** Bounds of the named top-level or nested primitive columns; unknown names are left out. */
  static Map<String, ColumnBounds> collect(Table table, Set<String> columns) {
    requireNonNull(table, "table is null");
    Map<String, ColumnBounds> bounds = new LinkedHashMap<>();
    for (String column : columns) {
      Types.NestedField field = findField(table, column);
      if (field != null && field.type().isPrimitiveType()) {
        bounds.put(column, new ColumnBounds(field));
      }
    }
    if (bounds.isEmpty() || table.currentSnapshot() == null) {
      return bounds;
    }
    try (CloseableIterable<FileScanTask> tasks = table.newScan().includeColumnStats().planFiles()) {
      for (FileScanTask task : tasks) {
        bounds.values().forEach(columnBounds -> columnBounds.add(task.file()));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the manifests of " + table.name(), e);
    }
    return bounds;
  }

  /** The column by exact name, else ignoring case (engines often report lower-cased names). */
  static Types.NestedField findField(Table table, String column) {
    Types.NestedField exact = table.schema().findField(column);
    return exact != null ? exact : table.schema().caseInsensitiveFindField(column);
  }

  private void add(DataFile file) {
    int id = field.fieldId();
    Long values = file.valueCounts() == null ? null : file.valueCounts().get(id);
    Long nulls = file.nullValueCounts() == null ? null : file.nullValueCounts().get(id);
    files++;
    long nonNull =
        Math.max(0, (values == null ? file.recordCount() : values) - (nulls == null ? 0 : nulls));
    nonNullValues += nonNull;
    ByteBuffer lower = file.lowerBounds() == null ? null : file.lowerBounds().get(id);
    ByteBuffer upper = file.upperBounds() == null ? null : file.upperBounds().get(id);
    if (lower == null || upper == null) {
      everyFileBounded &= nonNull == 0;
      return;
    }
    boundedFiles++;
    addBound(lower);
    addBound(upper);
  }

  private void addBound(ByteBuffer bound) {
    Object value = Conversions.fromByteBuffer(field.type(), bound.duplicate());
    if (distinctBounds.add(bound.duplicate())) {
      boundValues.add(value);
    }
    if (lowest == null || comparator.compare(value, lowest) < 0) {
      lowest = value;
    }
    if (highest == null || comparator.compare(value, highest) > 0) {
      highest = value;
    }
  }

  Types.NestedField field() {
    return field;
  }

  Type type() {
    return field.type();
  }

  /** Data files of the snapshot. */
  long files() {
    return files;
  }

  long nonNullValues() {
    return nonNullValues;
  }

  /** How many different values occur among the files' lower and upper bounds. */
  int distinctBoundCount() {
    return distinctBounds.size();
  }

  /** Bounds seen: two per file that has bounds. */
  long boundCount() {
    return 2 * boundedFiles;
  }

  /** The smallest and largest bound, when every file holding values has bounds. */
  Optional<BoundRange> range() {
    return everyFileBounded && lowest != null
        ? Optional.of(new BoundRange(lowest, highest))
        : Optional.empty();
  }

  /** The smallest lower bound and the largest upper bound of a column, as Iceberg values. */
  record BoundRange(Object lower, Object upper) {}

  /**
   * The distinct bound values in ascending order: real values of the column, spread over its range.
   */
  List<Object> sortedBoundValues() {
    List<Object> sorted = new ArrayList<>(boundValues);
    sorted.sort(comparator);
    return sorted;
  }
}
