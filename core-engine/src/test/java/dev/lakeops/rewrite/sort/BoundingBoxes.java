package dev.lakeops.rewrite.sort;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Comparators;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Types;

/** Measures data files' bounding boxes: pairs that intersect on two columns, spans on one. */
final class BoundingBoxes {
  private BoundingBoxes() {}

  static long overlappingPairs(
      Schema schema, List<DataFile> files, int firstFieldId, int secondFieldId) {
    long pairs = 0;
    for (int left = 0; left < files.size(); left++) {
      for (int right = left + 1; right < files.size(); right++) {
        if (overlaps(schema, files.get(left), files.get(right), firstFieldId)
            && overlaps(schema, files.get(left), files.get(right), secondFieldId)) {
          pairs++;
        }
      }
    }
    return pairs;
  }

  /**
   * Each file's span on the long column {@code fieldId} (upper minus lower bound) as a fraction of
   * the span of all {@code files} together; 0 for a file with no bounds (nulls only).
   */
  static List<Double> longSpanFractions(Schema schema, List<DataFile> files, int fieldId) {
    Types.NestedField field = schema.findField(fieldId);
    List<long[]> ranges = new ArrayList<>();
    for (DataFile file : files) {
      Long lower = (Long) value(file.lowerBounds().get(fieldId), field);
      Long upper = (Long) value(file.upperBounds().get(fieldId), field);
      ranges.add(lower == null || upper == null ? null : new long[] {lower, upper});
    }
    long lowest =
        ranges.stream().filter(Objects::nonNull).mapToLong(range -> range[0]).min().orElse(0);
    long highest =
        ranges.stream().filter(Objects::nonNull).mapToLong(range -> range[1]).max().orElse(0);
    double whole = Math.max(1, highest - lowest);
    return ranges.stream().map(range -> range == null ? 0 : (range[1] - range[0]) / whole).toList();
  }

  /** Overlapping pairs as a fraction of all pairs of {@code files} files. */
  static double pairFraction(long pairs, int files) {
    return files < 2 ? 0 : pairs / (files * (files - 1) / 2.0);
  }

  @SuppressWarnings("unchecked")
  private static boolean overlaps(Schema schema, DataFile left, DataFile right, int fieldId) {
    Types.NestedField field = schema.findField(fieldId);
    Comparator<Object> comparator =
        (Comparator<Object>) (Comparator<?>) Comparators.forType(field.type().asPrimitiveType());
    Object leftLower = value(left.lowerBounds().get(fieldId), field);
    Object leftUpper = value(left.upperBounds().get(fieldId), field);
    Object rightLower = value(right.lowerBounds().get(fieldId), field);
    Object rightUpper = value(right.upperBounds().get(fieldId), field);
    if (leftLower == null || leftUpper == null || rightLower == null || rightUpper == null) {
      return true;
    }
    return comparator.compare(leftLower, rightUpper) <= 0
        && comparator.compare(rightLower, leftUpper) <= 0;
  }

  private static Object value(ByteBuffer bytes, Types.NestedField field) {
    return bytes == null ? null : Conversions.fromByteBuffer(field.type(), bytes);
  }
}
