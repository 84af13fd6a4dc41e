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
  public void encodeRows(VectorSchemaRoot batch, int rows, KeyBytes key, RowKeys consumer) {
    BoundField[] bound = new BoundField[fields.size()];
    for (int field = 0; field < bound.length; field++) {
      bound[field] = fields.get(field).bind(batch);
    }
    for (int row = 0; row < rows; row++) {
      key.reset();
      for (BoundField field : bound) {
        field.encode(row, key);
      }
      consumer.accept(row, key);
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
          "Cannot sort by field id "
              + field.sourceId()
              + ": only top-level columns can be sort columns");
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
      throw new IllegalArgumentException(
          "Cannot sort by a value of " + value.getClass().getSimpleName());
    }
  }

  private static void putDecimal(BigInteger unscaled, KeyBytes key) {
    byte[] minimal = unscaled.toByteArray();
    if (minimal.length > 16) {
      throw new IllegalArgumentException(
          "Cannot sort by a decimal wider than 38 digits: " + unscaled);
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

  /**
   * How a field's values reach its key: straight from the vector's buffers, or through a value
   * reader.
   */
  private enum FieldKind {
    LONG,
    INT,
    BYTES,
    VALUE
  }

  /**
   * A field encoder with one batch's vector and buffer addresses read once, for the batch's rows:
   * the same keys as {@link FieldEncoder#encode}, without finding the vector and its buffers per
   * row.
   */
  private static final class BoundField {
    private final FieldEncoder field;
    private final FieldVector vector;
    private final FieldKind kind;

    /** The validity buffer's address, 0 when the vector has none to read by address. */
    private final long validity;

    private final long data;
    private final long offsets;

    BoundField(FieldEncoder field, FieldVector vector) {
      this.field = field;
      this.vector = vector;
      this.kind = field.kindOf(vector);
      boolean flat =
          vector instanceof BaseFixedWidthVector || vector instanceof BaseVariableWidthVector;
      this.validity = flat ? vector.getValidityBuffer().memoryAddress() : 0;
      this.data = kind == FieldKind.VALUE ? 0 : vector.getDataBuffer().memoryAddress();
      this.offsets = kind == FieldKind.BYTES ? vector.getOffsetBuffer().memoryAddress() : 0;
    }

    void encode(int row, KeyBytes key) {
      boolean isNull =
          validity != 0
              ? ((MemoryUtil.getByte(validity + (row >>> 3)) >>> (row & 7)) & 1) == 0
              : vector.isNull(row);
      if (isNull) {
        key.put(field.nullMarker());
        return;
      }
      switch (kind) {
        case LONG -> field.putLong(MemoryUtil.getLong(data + (long) row * Long.BYTES), key);
        case INT -> field.putInt(MemoryUtil.getInt(data + (long) row * Integer.BYTES), key);
        case BYTES -> {
          long offset = offsets + (long) row * BaseVariableWidthVector.OFFSET_WIDTH;
          int start = MemoryUtil.getInt(offset);
          field.putBytes(
              data + start,
              MemoryUtil.getInt(offset + BaseVariableWidthVector.OFFSET_WIDTH) - start,
              key);
        }
        case VALUE -> field.encodeValueOf(vector, row, key);
      }
    }
  }

  private record FieldEncoder(
      int column,
      ColumnValues.Reader reader,
      SerializableFunction<Object, Object> transform,
      boolean descending,
      int nullMarker) {
    BoundField bind(VectorSchemaRoot batch) {
      return new BoundField(this, batch.getVector(column));
    }

    /**
     * How {@code vector}'s values reach the key: by address (identity on ints, longs, strings,
     * binaries) or read as values.
     */
    FieldKind kindOf(FieldVector vector) {
      if (transform != null) {
        return FieldKind.VALUE;
      }
      if (vector instanceof BigIntVector
          || vector instanceof TimeStampVector
          || vector instanceof TimeMicroVector) {
        return FieldKind.LONG;
      }
      if (vector instanceof IntVector || vector instanceof DateDayVector) {
        return FieldKind.INT;
      }
      if (vector instanceof VarCharVector || vector instanceof VarBinaryVector) {
        return FieldKind.BYTES;
      }
      return FieldKind.VALUE;
    }

    void encode(VectorSchemaRoot batch, int row, KeyBytes key) {
      bind(batch).encode(row, key);
    }

    /** The non-null value of {@code row}, read, transformed and encoded. */
    void encodeValueOf(FieldVector vector, int row, KeyBytes key) {
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

    void putLong(long value, KeyBytes key) {
      key.put(NOT_NULL);
      long ascending = value ^ Long.MIN_VALUE;
      key.putLong(descending ? ~ascending : ascending);
    }

    /** The {@code length} value bytes at {@code address}, escaped. */
    void putBytes(long address, int length, KeyBytes key) {
      key.put(NOT_NULL);
      int keyStart = key.length();
      key.putEscaped(address, length);
      if (descending) {
        key.invertFrom(keyStart);
      }
    }

    void putInt(int value, KeyBytes key) {
      key.put(NOT_NULL);
      int ascending = value ^ Integer.MIN_VALUE;
      key.putInt(descending ? ~ascending : ascending);
    }
  }
}
