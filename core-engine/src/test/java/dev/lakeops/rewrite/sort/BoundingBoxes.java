package dev.lakeops.rewrite.sort;

import java.nio.ByteBuffer;
import java.util.Comparator;
import java.util.List;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Comparators;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Types;

/** Counts pairs of data files whose bounding boxes on two columns intersect. */
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
