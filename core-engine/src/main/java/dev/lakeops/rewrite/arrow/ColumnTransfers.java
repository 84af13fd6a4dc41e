package dev.lakeops.rewrite.arrow;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.UUID;
import org.apache.arrow.vector.BaseVariableWidthVector;
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
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.DateTimeUtil;
import org.apache.iceberg.util.UUIDUtil;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveType;

/** The {@link ColumnTransfer} for each Iceberg primitive type. */
public final class ColumnTransfers {
  private ColumnTransfers() {}

  public static ColumnTransfer forType(Type type, PrimitiveType parquetType) {
    return switch (type.typeId()) {
      case BOOLEAN -> new Transfer(
          (vector, row, value) -> ((BitVector) vector).setSafe(row, (Boolean) value ? 1 : 0),
          ColumnWrites.rowByRow((vector, row, writer, level) -> writer.write(((BitVector) vector).get(row) == 1, 0, level)));
      case INTEGER -> new Transfer(
          (vector, row, value) -> ((IntVector) vector).setSafe(row, (Integer) value),
          ColumnWrites::writeInts);
      case LONG -> new Transfer(
          (vector, row, value) -> ((BigIntVector) vector).setSafe(row, ((Number) value).longValue()),
          ColumnWrites::writeLongs);
      case FLOAT -> new Transfer(
          (vector, row, value) -> ((Float4Vector) vector).setSafe(row, (Float) value),
          ColumnWrites::writeFloats);
      case DOUBLE -> new Transfer(
          (vector, row, value) -> ((Float8Vector) vector).setSafe(row, ((Number) value).doubleValue()),
          ColumnWrites::writeDoubles);
      case DATE -> new Transfer(
          (vector, row, value) -> ((DateDayVector) vector).setSafe(row, (int) ((LocalDate) value).toEpochDay()),
          ColumnWrites::writeInts);
      case TIME -> new Transfer(
          (vector, row, value) -> ((TimeMicroVector) vector).setSafe(row, ((LocalTime) value).toNanoOfDay() / 1000),
          ColumnWrites::writeLongs);
      case TIMESTAMP -> new Transfer(
          (vector, row, value) -> ((TimeStampVector) vector).setSafe(row, timestampMicros(value)),
          ColumnWrites::writeLongs);
      case STRING -> new Transfer(
          (vector, row, value) -> ((VarCharVector) vector).setSafe(row, value.toString().getBytes(StandardCharsets.UTF_8)),
          binaryWriter());
      case BINARY -> new Transfer(
          (vector, row, value) -> ((VarBinaryVector) vector).setSafe(row, bytes((ByteBuffer) value)),
          binaryWriter());
      case FIXED -> new Transfer(
          (vector, row, value) -> ((FixedSizeBinaryVector) vector).setSafe(row, fixedBytes(value)),
          ColumnWrites.rowByRow(ColumnTransfers::writeFixed));
      case UUID -> new Transfer(
          (vector, row, value) -> ((FixedSizeBinaryVector) vector).setSafe(row, uuidBytes(value)),
          ColumnWrites.rowByRow(ColumnTransfers::writeFixed));
      case DECIMAL -> decimal((Types.DecimalType) type, parquetType);
      default -> throw new IllegalArgumentException("No columnar transfer for " + type);
    };
  }

  private static ColumnTransfer decimal(Types.DecimalType type, PrimitiveType parquetType) {
    ValueSetter setter = (vector, row, value) -> ((DecimalVector) vector).setSafe(row, (BigDecimal) value);
    return switch (parquetType.getPrimitiveTypeName()) {
      case INT32 -> new Transfer(
          setter,
          ColumnWrites.rowByRow(
              (vector, row, writer, level) ->
                  writer.write(((DecimalVector) vector).getObject(row).unscaledValue().intValueExact(), 0, level)));
      case INT64 -> new Transfer(
          setter,
          ColumnWrites.rowByRow(
              (vector, row, writer, level) ->
                  writer.write(((DecimalVector) vector).getObject(row).unscaledValue().longValueExact(), 0, level)));
      default -> {
        int length = parquetType.getTypeLength();
        yield new Transfer(
            setter,
            ColumnWrites.rowByRow(
                (vector, row, writer, level) ->
                    writer.write(
                        Binary.fromConstantByteArray(
                            twosComplement(((DecimalVector) vector).getObject(row).unscaledValue(), length)),
                        0,
                        level)));
      }
    };
  }

  /** Writes variable-width values through a byte array of its own, reused value after value. */
  private static ColumnWrite binaryWriter() {
    ReusedValueBytes bytes = new ReusedValueBytes();
    return (vector, rowCount, writer, level) ->
        ColumnWrites.writeBinaries((BaseVariableWidthVector) vector, rowCount, writer, level, bytes);
  }

  private static void writeFixed(FieldVector vector, int row, ColumnWriter writer, int level) {
    writer.write(Binary.fromConstantByteArray(((FixedSizeBinaryVector) vector).get(row)), 0, level);
  }

  private static long timestampMicros(Object value) {
    if (value instanceof OffsetDateTime offset) {
      return DateTimeUtil.microsFromTimestamptz(offset);
    }
    return DateTimeUtil.microsFromTimestamp((LocalDateTime) value);
  }

  private static byte[] bytes(ByteBuffer buffer) {
    ByteBuffer duplicate = buffer.duplicate();
    byte[] bytes = new byte[duplicate.remaining()];
    duplicate.get(bytes);
    return bytes;
  }

  private static byte[] fixedBytes(Object value) {
    return value instanceof ByteBuffer buffer ? bytes(buffer) : (byte[]) value;
  }

  private static byte[] uuidBytes(Object value) {
    return value instanceof UUID uuid ? bytes(UUIDUtil.convertToByteBuffer(uuid)) : fixedBytes(value);
  }

  private static byte[] twosComplement(BigInteger unscaled, int length) {
    byte[] minimal = unscaled.toByteArray();
    byte[] padded = new byte[length];
    Arrays.fill(padded, 0, length - minimal.length, unscaled.signum() < 0 ? (byte) 0xFF : 0);
    System.arraycopy(minimal, 0, padded, length - minimal.length, minimal.length);
    return padded;
  }

  @FunctionalInterface
  private interface ValueSetter {
    void set(FieldVector vector, int row, Object value);
  }

  @FunctionalInterface
  interface ValueWriter {
    void write(FieldVector vector, int row, ColumnWriter writer, int level);
  }

  @FunctionalInterface
  interface ColumnWrite {
    void write(FieldVector vector, int rowCount, ColumnWriter writer, int maxDefinition);
  }

  private record Transfer(ValueSetter setter, ColumnWrite columnWrite) implements ColumnTransfer {
    @Override
    public void set(FieldVector vector, int row, Object value) {
      setter.set(vector, row, value);
    }

    @Override
    public void writeColumn(FieldVector vector, int rowCount, ColumnWriter writer, int maxDefinition) {
      columnWrite.write(vector, rowCount, writer, maxDefinition);
    }
  }
}
