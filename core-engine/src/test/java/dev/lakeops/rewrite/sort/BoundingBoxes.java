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
import org.apache.iceberg.types.Types;

/** Measures data files' bounding boxes: pairs that intersect on two columns, spans on one. */
final class BoundingBoxes {
  private BoundingBoxes() {}

  static long overlappingPairs(Schema schema, List<DataFile> files, int firstFieldId, int secondFieldId) {
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
  static List<Double> longSpanFractions(List<DataFile> files, int fieldId) {
    long lowest = Long.MAX_VALUE;
    long highest = Long.MIN_VALUE;
    for (DataFile file : files) {
      Long lower = longBound(file.lowerBounds(), fieldId);
      Long upper = longBound(file.upperBounds(), fieldId);
      if (lower != null && upper != null) {
        lowest = Math.min(lowest, lower);
        highest = Math.max(highest, upper);
      }
    }
    double whole = Math.max(1, highest - lowest);
    List<Double> fractions = new ArrayList<>();
    for (DataFile file : files) {
      Long lower = longBound(file.lowerBounds(), fieldId);
      Long upper = longBound(file.upperBounds(), fieldId);
      fractions.add(lower == null || upper == null ? 0 : (upper - lower) / whole);
    }
    return fractions;
  }

  private static Long longBound(Map<Integer, ByteBuffer> bounds, int fieldId) {
    ByteBuffer bytes = bounds == null ? null : bounds.get(fieldId);
    return bytes == null ? null : Conversions.<Long>fromByteBuffer(Types.LongType.get(), bytes);
  }

  /** Overlapping pairs as a fraction of all pairs of {@code files} files. */
  static double pairFraction(long pairs, int files) {
    return files < 2 ? 0 : pairs / (files * (files - 1) / 2.0);
  }

  @SuppressWarnings("unchecked")
  private static boolean overlaps(Schema schema, DataFile left, DataFile right, int fieldId) {
    Types.NestedField field = schema.findField(fieldId);
    Comparator<Object> comparator = (Comparator<Object>) (Comparator<?>) Comparators.forType(field.type().asPrimitiveType());
    Object leftLower = value(left.lowerBounds().get(fieldId), field);
    Object leftUpper = value(left.upperBounds().get(fieldId), field);
    Object rightLower = value(right.lowerBounds().get(fieldId), field);
    Object rightUpper = value(right.upperBounds().get(fieldId), field);
    if (leftLower == null || leftUpper == null || rightLower == null || rightUpper == null) {
      return true;
    }
    return comparator.compare(leftLower, rightUpper) <= 0 && comparator.compare(rightLower, leftUpper) <= 0;
  }

  private static Object value(ByteBuffer bytes, Types.NestedField field) {
    return bytes == null ? null : Conversions.fromByteBuffer(field.type(), bytes);
  }
}
