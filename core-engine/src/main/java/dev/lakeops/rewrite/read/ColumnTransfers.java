package dev.lakeops.rewrite.read;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.UUID;
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
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.util.DateTimeUtil;
import org.apache.iceberg.util.UUIDUtil;

/** The {@link ColumnTransfer} for each Iceberg primitive type. */
public final class ColumnTransfers {
  private ColumnTransfers() {}

  public static ColumnTransfer forType(Type type) {
    return switch (type.typeId()) {
      case BOOLEAN ->
          (vector, row, value) -> ((BitVector) vector).setSafe(row, (Boolean) value ? 1 : 0);
      case INTEGER -> (vector, row, value) -> ((IntVector) vector).setSafe(row, (Integer) value);
      case LONG ->
          (vector, row, value) ->
              ((BigIntVector) vector).setSafe(row, ((Number) value).longValue());
      case FLOAT -> (vector, row, value) -> ((Float4Vector) vector).setSafe(row, (Float) value);
      case DOUBLE ->
          (vector, row, value) ->
              ((Float8Vector) vector).setSafe(row, ((Number) value).doubleValue());
      case DATE ->
          (vector, row, value) ->
              ((DateDayVector) vector).setSafe(row, (int) ((LocalDate) value).toEpochDay());
      case TIME ->
          (vector, row, value) ->
              ((TimeMicroVector) vector).setSafe(row, ((LocalTime) value).toNanoOfDay() / 1000);
      case TIMESTAMP ->
          (vector, row, value) -> ((TimeStampVector) vector).setSafe(row, timestampMicros(value));
      case STRING ->
          (vector, row, value) ->
              ((VarCharVector) vector)
                  .setSafe(row, value.toString().getBytes(StandardCharsets.UTF_8));
      case BINARY ->
          (vector, row, value) ->
              ((VarBinaryVector) vector).setSafe(row, bytes((ByteBuffer) value));
      case FIXED ->
          (vector, row, value) -> ((FixedSizeBinaryVector) vector).setSafe(row, fixedBytes(value));
      case UUID ->
          (vector, row, value) -> ((FixedSizeBinaryVector) vector).setSafe(row, uuidBytes(value));
      case DECIMAL ->
          (vector, row, value) -> ((DecimalVector) vector).setSafe(row, (BigDecimal) value);
      default -> throw new IllegalArgumentException("No columnar transfer for " + type);
    };
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
    return value instanceof UUID uuid
        ? bytes(UUIDUtil.convertToByteBuffer(uuid))
        : fixedBytes(value);
  }
}
