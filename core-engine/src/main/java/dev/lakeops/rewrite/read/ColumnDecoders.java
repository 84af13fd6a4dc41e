package dev.lakeops.rewrite.read;

import java.nio.ByteBuffer;
import java.util.Optional;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.DecimalLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.IntLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimestampLogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * The {@link ColumnDecoder} for an Iceberg column read from a Parquet column, covering what Iceberg
 * writes and the promotions Iceberg allows (int to long, float to double, wider decimals). Anything
 * else (INT96 or nanosecond timestamps, unsigned integers, ...) is left to the record path: the
 * result is empty.
 */
final class ColumnDecoders {
  private static final long MICROS_PER_MILLI = 1000L;

  private ColumnDecoders() {}

  static Optional<ColumnDecoder> forColumn(Type type, PrimitiveType fileType) {
    PrimitiveTypeName physical = fileType.getPrimitiveTypeName();
    LogicalTypeAnnotation logical = fileType.getLogicalTypeAnnotation();
    return Optional.ofNullable(
        switch (type.typeId()) {
          case BOOLEAN ->
              physical == PrimitiveTypeName.BOOLEAN
                  ? (reader, vector, row) ->
                      ((BitVector) vector).setSafe(row, reader.getBoolean() ? 1 : 0)
                  : null;
          case INTEGER ->
              physical == PrimitiveTypeName.INT32 && signedInteger(logical)
                  ? (reader, vector, row) -> ((IntVector) vector).setSafe(row, reader.getInteger())
                  : null;
          case LONG -> longDecoder(physical, logical);
          case FLOAT ->
              physical == PrimitiveTypeName.FLOAT
                  ? (reader, vector, row) -> ((Float4Vector) vector).setSafe(row, reader.getFloat())
                  : null;
          case DOUBLE ->
              switch (physical) {
                case FLOAT ->
                    (reader, vector, row) ->
                        ((Float8Vector) vector).setSafe(row, reader.getFloat());
                case DOUBLE ->
                    (reader, vector, row) ->
                        ((Float8Vector) vector).setSafe(row, reader.getDouble());
                default -> null;
              };
          case DATE ->
              physical == PrimitiveTypeName.INT32
                      && logical instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation
                  ? (reader, vector, row) ->
                      ((DateDayVector) vector).setSafe(row, reader.getInteger())
                  : null;
          case TIME -> timeDecoder(physical, logical);
          case TIMESTAMP -> timestampDecoder(physical, logical);
          case STRING, BINARY ->
              physical == PrimitiveTypeName.BINARY
                  ? (reader, vector, row) ->
                      setBytes((BaseVariableWidthVector) vector, row, reader.getBinary())
                  : null;
          case FIXED, UUID ->
              physical == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY
                      && fileType.getTypeLength() == fixedLength(type)
                  ? (reader, vector, row) ->
                      ((FixedSizeBinaryVector) vector).setSafe(row, reader.getBinary().getBytes())
                  : null;
          case DECIMAL -> decimalDecoder((Types.DecimalType) type, physical, logical);
          default -> null;
        });
  }

  private static ColumnDecoder longDecoder(
      PrimitiveTypeName physical, LogicalTypeAnnotation logical) {
    if (!signedInteger(logical)) {
      return null;
    }
    return switch (physical) {
      case INT32 ->
          (reader, vector, row) -> ((BigIntVector) vector).setSafe(row, reader.getInteger());
      case INT64 -> (reader, vector, row) -> ((BigIntVector) vector).setSafe(row, reader.getLong());
      default -> null;
    };
  }

  private static ColumnDecoder timeDecoder(
      PrimitiveTypeName physical, LogicalTypeAnnotation logical) {
    if (!(logical instanceof TimeLogicalTypeAnnotation time)) {
      return null;
    }
    if (physical == PrimitiveTypeName.INT64 && time.getUnit() == TimeUnit.MICROS) {
      return (reader, vector, row) -> ((TimeMicroVector) vector).setSafe(row, reader.getLong());
    }
    if (physical == PrimitiveTypeName.INT32 && time.getUnit() == TimeUnit.MILLIS) {
      return (reader, vector, row) ->
          ((TimeMicroVector) vector).setSafe(row, reader.getInteger() * MICROS_PER_MILLI);
    }
    return null;
  }

  private static ColumnDecoder timestampDecoder(
      PrimitiveTypeName physical, LogicalTypeAnnotation logical) {
    if (physical != PrimitiveTypeName.INT64
        || !(logical instanceof TimestampLogicalTypeAnnotation timestamp)) {
      return null;
    }
    return switch (timestamp.getUnit()) {
      case MICROS ->
          (reader, vector, row) -> ((TimeStampVector) vector).setSafe(row, reader.getLong());
      case MILLIS ->
          (reader, vector, row) ->
              ((TimeStampVector) vector).setSafe(row, reader.getLong() * MICROS_PER_MILLI);
      default -> null;
    };
  }

  private static ColumnDecoder decimalDecoder(
      Types.DecimalType type, PrimitiveTypeName physical, LogicalTypeAnnotation logical) {
    if (!(logical instanceof DecimalLogicalTypeAnnotation decimal)
        || decimal.getScale() != type.scale()
        || decimal.getPrecision() > type.precision()) {
      return null;
    }
    return switch (physical) {
      case INT32 ->
          (reader, vector, row) ->
              ((DecimalVector) vector).setSafe(row, (long) reader.getInteger());
      case INT64 ->
          (reader, vector, row) -> ((DecimalVector) vector).setSafe(row, reader.getLong());
      case FIXED_LEN_BYTE_ARRAY, BINARY ->
          (reader, vector, row) ->
              ((DecimalVector) vector).setBigEndianSafe(row, reader.getBinary().getBytes());
      default -> null;
    };
  }

  private static boolean signedInteger(LogicalTypeAnnotation logical) {
    return logical == null
        || (logical instanceof IntLogicalTypeAnnotation integer && integer.isSigned());
  }

  private static int fixedLength(Type type) {
    return type instanceof Types.FixedType fixed ? fixed.length() : 16;
  }

  private static void setBytes(BaseVariableWidthVector vector, int row, Binary value) {
    ByteBuffer bytes = value.toByteBuffer();
    vector.setSafe(row, bytes, bytes.position(), bytes.remaining());
  }
}
