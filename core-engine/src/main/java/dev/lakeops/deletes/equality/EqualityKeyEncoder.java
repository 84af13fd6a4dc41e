package dev.lakeops.deletes.equality;

import static java.util.Objects.requireNonNull;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import org.apache.iceberg.Accessor;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.data.InternalRecordWrapper;

/**
 * Encodes the equality-key columns of a row as bytes, so that two rows have equal keys exactly when
 * Iceberg's equality-delete comparison says so (nulls equal nulls, floats compared by bits, strings
 * by content): the key of a delete row and of a data row, both read with the table's current types,
 * are then compared and hashed as plain byte arrays. Not thread-safe (reuses one buffer).
 */
final class EqualityKeyEncoder {
  private final InternalRecordWrapper wrapper;
  private final List<Accessor<StructLike>> accessors;
  private final Buffer buffer = new Buffer();

  /**
   * @param readSchema the schema rows are read with
   * @param keyFieldIds the equality field ids, in the order both sides use (ascending)
   */
  EqualityKeyEncoder(Schema readSchema, List<Integer> keyFieldIds) {
    requireNonNull(readSchema, "readSchema is null");
    this.wrapper = new InternalRecordWrapper(readSchema.asStruct());
    this.accessors =
        keyFieldIds.stream()
            .map(
                id ->
                    requireNonNull(
                        readSchema.accessorForField(id), "no column with field id " + id))
            .toList();
  }

  byte[] encode(StructLike row) {
    StructLike internal = wrapper.wrap(row);
    buffer.reset();
    for (Accessor<StructLike> accessor : accessors) {
      write(accessor.get(internal));
    }
    return buffer.toByteArray();
  }

  private void write(Object value) {
    if (value == null) {
      buffer.write(0);
    } else if (value instanceof Integer number) {
      buffer.write(1);
      buffer.writeInt(number);
    } else if (value instanceof Long number) {
      buffer.write(2);
      buffer.writeLong(number);
    } else if (value instanceof CharSequence text) {
      buffer.write(3);
      buffer.writeBytes(text.toString().getBytes(StandardCharsets.UTF_8));
    } else if (value instanceof Float number) {
      buffer.write(4);
      buffer.writeInt(Float.floatToIntBits(number));
    } else if (value instanceof Double number) {
      buffer.write(5);
      buffer.writeLong(Double.doubleToLongBits(number));
    } else if (value instanceof Boolean flag) {
      buffer.write(flag ? 7 : 6);
    } else if (value instanceof BigDecimal decimal) {
      buffer.write(8);
      buffer.writeInt(decimal.scale());
      buffer.writeBytes(decimal.unscaledValue().toByteArray());
    } else if (value instanceof ByteBuffer bytes) {
      buffer.write(9);
      ByteBuffer copy = bytes.duplicate();
      byte[] array = new byte[copy.remaining()];
      copy.get(array);
      buffer.writeBytes(array);
    } else if (value instanceof byte[] bytes) {
      buffer.write(9);
      buffer.writeBytes(bytes);
    } else if (value instanceof UUID uuid) {
      buffer.write(10);
      buffer.writeLong(uuid.getMostSignificantBits());
      buffer.writeLong(uuid.getLeastSignificantBits());
    } else {
      throw new UnsupportedOperationException(
          "Cannot apply equality deletes on a column of Java type "
              + value.getClass().getName()
              + ": LakeOps applies equality deletes on primitive columns only");
    }
  }

  /** A byte buffer with big-endian number writers and length-prefixed byte strings. */
  private static final class Buffer extends ByteArrayOutputStream {
    void writeInt(int value) {
      for (int shift = 24; shift >= 0; shift -= 8) {
        write(value >>> shift);
      }
    }

    void writeLong(long value) {
      for (int shift = 56; shift >= 0; shift -= 8) {
        write((int) (value >>> shift));
      }
    }

    @Override
    public void writeBytes(byte[] bytes) {
      writeInt(bytes.length);
      write(bytes, 0, bytes.length);
    }
  }
}
