package dev.lakeops.rewrite.sort;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.NullOrder;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortDirection;
import org.apache.iceberg.SortField;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.transforms.Transform;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.SerializableFunction;

/**
 * Encodes rows by an Iceberg {@link SortOrder}: per field a null marker placed by the null order,
 * then the (transformed) value in an order-preserving encoding, bit-inverted when descending.
 */
final class OrderKeyEncoder implements SortKeyEncoder {
  private static final int NULL_FIRST = 0x00;
  private static final int NOT_NULL = 0x01;
  private static final int NULL_LAST = 0x02;

  private final List<FieldEncoder> fields;
  private final KeyBytes leading = new KeyBytes();

  OrderKeyEncoder(Schema writeSchema, SortOrder order) {
    requireNonNull(writeSchema, "writeSchema is null");
    requireNonNull(order, "order is null");
    List<FieldEncoder> encoders = new ArrayList<>();
    for (SortField field : order.fields()) {
      encoders.add(fieldEncoder(writeSchema, field));
    }
    this.fields = List.copyOf(encoders);
  }

  @Override
  public void encode(VectorSchemaRoot batch, int row, KeyBytes key) {
    for (FieldEncoder field : fields) {
      field.encode(batch, row, key);
    }
  }

  @Override
  public byte[] leadingValue(VectorSchemaRoot batch, int row) {
    leading.reset();
    fields.get(0).encode(batch, row, leading);
    return leading.copy();
  }

  @SuppressWarnings("unchecked")
  private static FieldEncoder fieldEncoder(Schema writeSchema, SortField field) {
    List<Types.NestedField> columns = writeSchema.columns();
    int column = -1;
    for (int index = 0; index < columns.size(); index++) {
      if (columns.get(index).fieldId() == field.sourceId()) {
        column = index;
      }
    }
    if (column < 0) {
      throw new IllegalArgumentException(
          "Cannot sort by field id " + field.sourceId() + ": only top-level columns can be sort columns");
    }
    Type type = columns.get(column).type();
    Transform<Object, Object> transform = (Transform<Object, Object>) field.transform();
    boolean identity = transform.isIdentity();
    SerializableFunction<Object, Object> function = identity ? null : transform.bind(type);
    return new FieldEncoder(
        column,
        ColumnValues.reader(type, !identity),
        function,
        field.direction() == SortDirection.DESC,
        field.nullOrder() == NullOrder.NULLS_FIRST ? NULL_FIRST : NULL_LAST);
  }

  /** Writes {@code value}, never null, so that unsigned byte order is the value order. */
  static void encodeValue(Object value, KeyBytes key) {
    if (value instanceof Integer number) {
      key.putInt(number ^ Integer.MIN_VALUE);
    } else if (value instanceof Long number) {
      key.putLong(number ^ Long.MIN_VALUE);
    } else if (value instanceof byte[] bytes) {
      key.putEscaped(bytes);
    } else if (value instanceof CharSequence text) {
      key.putEscaped(text.toString().getBytes(StandardCharsets.UTF_8));
    } else if (value instanceof Double number) {
      long bits = Double.doubleToLongBits(number);
      key.putLong(bits < 0 ? ~bits : bits ^ Long.MIN_VALUE);
    } else if (value instanceof Float number) {
      int bits = Float.floatToIntBits(number);
      key.putInt(bits < 0 ? ~bits : bits ^ Integer.MIN_VALUE);
    } else if (value instanceof Boolean flag) {
      key.put(flag ? 1 : 0);
    } else if (value instanceof BigDecimal decimal) {
      putDecimal(decimal.unscaledValue(), key);
    } else if (value instanceof ByteBuffer buffer) {
      ByteBuffer duplicate = buffer.duplicate();
      byte[] bytes = new byte[duplicate.remaining()];
      duplicate.get(bytes);
      key.putEscaped(bytes);
    } else if (value instanceof UUID uuid) {
      key.putLong(uuid.getMostSignificantBits() ^ Long.MIN_VALUE);
      key.putLong(uuid.getLeastSignificantBits() ^ Long.MIN_VALUE);
    } else {
      throw new IllegalArgumentException("Cannot sort by a value of " + value.getClass().getSimpleName());
    }
  }

  private static void putDecimal(BigInteger unscaled, KeyBytes key) {
    byte[] minimal = unscaled.toByteArray();
    if (minimal.length > 16) {
      throw new IllegalArgumentException("Cannot sort by a decimal wider than 38 digits: " + unscaled);
    }
    byte fill = unscaled.signum() < 0 ? (byte) 0xFF : 0;
    byte[] padded = new byte[16];
    for (int index = 0; index < 16 - minimal.length; index++) {
      padded[index] = fill;
    }
    System.arraycopy(minimal, 0, padded, 16 - minimal.length, minimal.length);
    padded[0] ^= (byte) 0x80;
    key.put(padded, 0, 16);
  }

  private record FieldEncoder(
      int column,
      ColumnValues.Reader reader,
      SerializableFunction<Object, Object> transform,
      boolean descending,
      int nullMarker) {
    void encode(VectorSchemaRoot batch, int row, KeyBytes key) {
      FieldVector vector = batch.getVector(column);
      if (isNull(vector, row)) {
        key.put(nullMarker);
        return;
      }
      if (encodePrimitive(vector, row, key) || encodeBytes(vector, row, key)) {
        return;
      }
      Object value = reader.read(vector, row);
      if (transform != null) {
        value = transform.apply(value);
      }
      if (value == null) {
        key.put(nullMarker);
        return;
      }
      key.put(NOT_NULL);
      int start = key.length();
      encodeValue(value, key);
      if (descending) {
        key.invertFrom(start);
      }
    }

    private static boolean isNull(FieldVector vector, int row) {
      if (vector instanceof BaseFixedWidthVector || vector instanceof BaseVariableWidthVector) {
        long validity = vector.getValidityBuffer().memoryAddress();
        return ((MemoryUtil.getByte(validity + (row >>> 3)) >>> (row & 7)) & 1) == 0;
      }
      return vector.isNull(row);
    }

    /** Identity on a column of 32- or 64-bit integers: written straight from the vector's memory. */
    private boolean encodePrimitive(FieldVector vector, int row, KeyBytes key) {
      if (transform != null) {
        return false;
      }
      long longValue;
      if (vector instanceof BigIntVector || vector instanceof TimeStampVector || vector instanceof TimeMicroVector) {
        longValue = MemoryUtil.getLong(vector.getDataBuffer().memoryAddress() + (long) row * Long.BYTES);
      } else if (vector instanceof IntVector || vector instanceof DateDayVector) {
        putInt(MemoryUtil.getInt(vector.getDataBuffer().memoryAddress() + (long) row * Integer.BYTES), key);
        return true;
      } else {
        return false;
      }
      key.put(NOT_NULL);
      long ascending = longValue ^ Long.MIN_VALUE;
      key.putLong(descending ? ~ascending : ascending);
      return true;
    }

    /** Identity on a string or binary column: the value's bytes escaped straight from the vector's memory. */
    private boolean encodeBytes(FieldVector vector, int row, KeyBytes key) {
      if (transform != null || !(vector instanceof VarCharVector || vector instanceof VarBinaryVector)) {
        return false;
      }
      long offsets = vector.getOffsetBuffer().memoryAddress() + (long) row * BaseVariableWidthVector.OFFSET_WIDTH;
      int start = MemoryUtil.getInt(offsets);
      int end = MemoryUtil.getInt(offsets + BaseVariableWidthVector.OFFSET_WIDTH);
      key.put(NOT_NULL);
      int keyStart = key.length();
      key.putEscaped(vector.getDataBuffer().memoryAddress() + start, end - start);
      if (descending) {
        key.invertFrom(keyStart);
      }
      return true;
    }

    private void putInt(int value, KeyBytes key) {
      key.put(NOT_NULL);
      int ascending = value ^ Integer.MIN_VALUE;
      key.putInt(descending ? ~ascending : ascending);
    }
  }
}
