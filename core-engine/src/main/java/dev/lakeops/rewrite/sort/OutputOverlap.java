package dev.lakeops.rewrite.sort;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Comparators;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Measures how well output files are separated on one column: per partition, the files whose
 * lower/upper bound range strictly overlaps another file's range (ranges that only touch at an end
 * point do not count). Sorted output has none. Files without bounds on the column (all nulls) are
 * not counted.
 */
public final class OutputOverlap {
  private OutputOverlap() {}

  /** Counts overlapping files in {@code filesByPartition}, each list one partition's new files. */
  public static int overlappingFiles(
      Schema schema, int fieldId, List<List<DataFile>> filesByPartition) {
    Types.NestedField field = schema.findField(fieldId);
    if (field == null || !field.type().isPrimitiveType()) {
      return 0;
    }
    Type type = field.type();
    Comparator<Object> comparator = comparator(type);
    int overlapping = 0;
    for (List<DataFile> files : filesByPartition) {
      overlapping += overlappingIn(files, field, comparator);
    }
    return overlapping;
  }

  @SuppressWarnings("unchecked")
  private static Comparator<Object> comparator(Type type) {
    return (Comparator<Object>) (Comparator<?>) Comparators.forType(type.asPrimitiveType());
  }

  private static int overlappingIn(
      List<DataFile> files, Types.NestedField field, Comparator<Object> comparator) {
    if (files.size() < 2) {
      return 0;
    }
    List<Object[]> ranges = new ArrayList<>();
    for (DataFile file : files) {
      Object lower = value(file.lowerBounds(), field);
      Object upper = value(file.upperBounds(), field);
      if (lower != null && upper != null) {
        ranges.add(new Object[] {lower, upper});
      }
    }
    boolean[] overlaps = new boolean[ranges.size()];
    for (int left = 0; left < ranges.size(); left++) {
      for (int right = left + 1; right < ranges.size(); right++) {
        Object[] a = ranges.get(left);
        Object[] b = ranges.get(right);
        if (comparator.compare(a[0], b[1]) < 0 && comparator.compare(b[0], a[1]) < 0) {
          overlaps[left] = true;
          overlaps[right] = true;
        }
      }
    }
    int count = 0;
    for (boolean overlap : overlaps) {
      count += overlap ? 1 : 0;
    }
    return count;
  }

  private static Object value(Map<Integer, ByteBuffer> bounds, Types.NestedField field) {
    ByteBuffer bytes = bounds == null ? null : bounds.get(field.fieldId());
    return bytes == null ? null : Conversions.fromByteBuffer(field.type(), bytes);
  }
}
