package dev.lakeops.rewrite.sort;

import java.nio.ByteBuffer;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.util.UUIDUtil;

/**
 * Reads a cell of an Arrow vector of the columnar path as the Java value Iceberg uses internally
 * (dates as days, timestamps as microseconds), which is what Iceberg transforms take.
 */
final class ColumnValues {
  private ColumnValues() {}

  /** Reads non-null values of one column; strings come as UTF-8 bytes unless {@code asText}. */
  interface Reader {
    Object read(FieldVector vector, int row);
  }

  static Reader reader(Type type, boolean asText) {
    return switch (type.typeId()) {
      case BOOLEAN -> (vector, row) -> ((BitVector) vector).get(row) == 1;
      case INTEGER -> (vector, row) -> ((IntVector) vector).get(row);
      case LONG -> (vector, row) -> ((BigIntVector) vector).get(row);
      case FLOAT -> (vector, row) -> ((Float4Vector) vector).get(row);
      case DOUBLE -> (vector, row) -> ((Float8Vector) vector).get(row);
      case DATE -> (vector, row) -> ((DateDayVector) vector).get(row);
      case TIME -> (vector, row) -> ((TimeMicroVector) vector).get(row);
      case TIMESTAMP -> (vector, row) -> ((TimeStampVector) vector).get(row);
      case STRING ->
          asText
              ? (vector, row) -> ((VarCharVector) vector).getObject(row).toString()
              : (vector, row) -> ((VarCharVector) vector).get(row);
      case BINARY ->
          asText
              ? (vector, row) -> ByteBuffer.wrap(((VarBinaryVector) vector).get(row))
              : (vector, row) -> ((VarBinaryVector) vector).get(row);
      case FIXED ->
          asText
              ? (vector, row) -> ByteBuffer.wrap(((FixedSizeBinaryVector) vector).get(row))
              : (vector, row) -> ((FixedSizeBinaryVector) vector).get(row);
      case UUID ->
          asText
              ? (vector, row) -> UUIDUtil.convert(((FixedSizeBinaryVector) vector).get(row))
              : (vector, row) -> ((FixedSizeBinaryVector) vector).get(row);
      case DECIMAL -> (vector, row) -> ((DecimalVector) vector).getObject(row);
      default -> throw new IllegalArgumentException("Cannot sort by a column of type " + type);
    };
  }
}
