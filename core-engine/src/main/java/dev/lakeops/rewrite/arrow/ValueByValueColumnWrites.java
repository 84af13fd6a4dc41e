package dev.lakeops.rewrite.arrow;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.Optional;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.iceberg.types.Type;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveType;

/**
 * Writes the columns the page encoders do not take (booleans, fixed, UUIDs, decimals) through
 * parquet-java's column writers, a value at a time read through the vector's API.
 */
final class ValueByValueColumnWrites {
  private ValueByValueColumnWrites() {}

  /**
   * The write for a column of {@code type} stored as {@code parquetType}, if this class has one.
   */
  static Optional<ColumnWrite> forType(Type type, PrimitiveType parquetType) {
    return switch (type.typeId()) {
      case BOOLEAN ->
          Optional.of(
              rowByRow(
                  (vector, row, writer, level) ->
                      writer.write(((BitVector) vector).get(row) == 1, 0, level)));
      case FIXED, UUID -> Optional.of(rowByRow(ValueByValueColumnWrites::writeFixed));
      case DECIMAL -> Optional.of(decimal(parquetType));
      default -> Optional.empty();
    };
  }

  private static ColumnWrite decimal(PrimitiveType parquetType) {
    return switch (parquetType.getPrimitiveTypeName()) {
      case INT32 ->
          rowByRow(
              (vector, row, writer, level) ->
                  writer.write(
                      ((DecimalVector) vector).getObject(row).unscaledValue().intValueExact(),
                      0,
                      level));
      case INT64 ->
          rowByRow(
              (vector, row, writer, level) ->
                  writer.write(
                      ((DecimalVector) vector).getObject(row).unscaledValue().longValueExact(),
                      0,
                      level));
      default -> {
        int length = parquetType.getTypeLength();
        yield rowByRow(
            (vector, row, writer, level) ->
                writer.write(
                    Binary.fromConstantByteArray(
                        twosComplement(
                            ((DecimalVector) vector).getObject(row).unscaledValue(), length)),
                    0,
                    level));
      }
    };
  }

  private static ColumnWrite rowByRow(ValueWrite values) {
    return (vector, rowCount, writer, maxDefinition) -> {
      for (int row = 0; row < rowCount; row++) {
        if (vector.isNull(row)) {
          writer.writeNull(0, 0);
        } else {
          values.write(vector, row, writer, maxDefinition);
        }
      }
    };
  }

  private static void writeFixed(FieldVector vector, int row, ColumnWriter writer, int level) {
    writer.write(Binary.fromConstantByteArray(((FixedSizeBinaryVector) vector).get(row)), 0, level);
  }

  private static byte[] twosComplement(BigInteger unscaled, int length) {
    byte[] minimal = unscaled.toByteArray();
    byte[] padded = new byte[length];
    Arrays.fill(padded, 0, length - minimal.length, unscaled.signum() < 0 ? (byte) 0xFF : 0);
    System.arraycopy(minimal, 0, padded, length - minimal.length, minimal.length);
    return padded;
  }

  /** Writes rows {@code [0, rowCount)} of a vector, non-null values at {@code maxDefinition}. */
  @FunctionalInterface
  interface ColumnWrite {
    void write(FieldVector vector, int rowCount, ColumnWriter writer, int maxDefinition);
  }

  @FunctionalInterface
  private interface ValueWrite {
    void write(FieldVector vector, int row, ColumnWriter writer, int level);
  }
}
