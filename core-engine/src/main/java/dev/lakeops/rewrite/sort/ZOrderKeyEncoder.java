package dev.lakeops.rewrite.sort;

import dev.lakeops.plan.ColumnSummary;
import dev.lakeops.plan.FileGroup;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Encodes rows by a Z-order curve: each column becomes a 64-bit unsigned, order-preserving value
 * (numbers, dates and timestamps by value, strings and binary by their first eight bytes, nulls as
 * zero, below every value), and the key interleaves the bits of all columns, most significant
 * first. Integer-like columns are first rescaled to the range the group's file bounds give, so a
 * narrow column (a day's timestamps) weighs as much as a wide one (user ids).
 */
final class ZOrderKeyEncoder implements SortKeyEncoder {
  /** Up to this many columns, a byte of each column is spread into one word by table lookup. */
  private static final int SPREAD_COLUMNS = 8;

  private final List<ZColumn> columns;
  private final long[] values;
  private final long[] spread;

  /** Per column, the scaled ordered bits of each row of the batch being encoded. */
  private long[][] columnValues = new long[0][];

  private ZOrderKeyEncoder(List<ZColumn> columns) {
    this.columns = List.copyOf(columns);
    this.values = new long[columns.size()];
    this.spread = columns.size() <= SPREAD_COLUMNS ? spreadTable(columns.size()) : null;
  }

  /** For each byte value, its bits moved {@code stride} apart: bit i goes to bit i * stride. */
  static long[] spreadTable(int stride) {
    long[] table = new long[256];
    for (int value = 0; value < 256; value++) {
      long spreadBits = 0;
      for (int bit = 0; bit < 8; bit++) {
        spreadBits |= (long) ((value >>> bit) & 1) << (bit * stride);
      }
      table[value] = spreadBits;
    }
    return table;
  }

  /** The encoder for one file group, rescaling numbers to the bounds of the group's files. */
  static ZOrderKeyEncoder forGroup(Schema writeSchema, List<Integer> fieldIds, FileGroup group) {
    return new ZOrderKeyEncoder(
        columns(writeSchema, fieldIds, (index, field) -> column(index, field, group)));
  }

  /**
   * The encoder of the top-level columns {@code fieldIds} of {@code writeSchema} by their values as
   * they are, not rescaled to any bounds.
   */
  static ZOrderKeyEncoder withoutRescaling(Schema writeSchema, List<Integer> fieldIds) {
    return new ZOrderKeyEncoder(
        columns(
            writeSchema,
            fieldIds,
            (index, field) -> new ZColumn(index, ColumnValues.reader(field.type(), false), 0, 0)));
  }

  /** The columns {@code fieldIds} of {@code writeSchema}, each made by {@code column}. */
  private static List<ZColumn> columns(
      Schema writeSchema,
      List<Integer> fieldIds,
      BiFunction<Integer, Types.NestedField, ZColumn> column) {
    List<Types.NestedField> schemaColumns = writeSchema.columns();
    List<ZColumn> columns = new ArrayList<>();
    for (int fieldId : fieldIds) {
      for (int index = 0; index < schemaColumns.size(); index++) {
        Types.NestedField field = schemaColumns.get(index);
        if (field.fieldId() == fieldId) {
          columns.add(column.apply(index, field));
        }
      }
    }
    return columns;
  }

  /**
   * Reads each column's values for all rows first, by memory address for integer-like vectors, then
   * interleaves row by row: the per-row path's vector lookups and type tests happen once a batch.
   */
  @Override
  public void encodeRows(VectorSchemaRoot batch, int rows, KeyBytes key, RowKeys consumer) {
    if (columnValues.length == 0 || columnValues[0].length < rows) {
      columnValues = new long[columns.size()][Math.max(rows, ExternalSorter.BATCH_ROWS)];
    }
    for (int index = 0; index < columns.size(); index++) {
      ZColumn column = columns.get(index);
      column.readAll(batch.getVector(column.index()), rows, columnValues[index]);
    }
    for (int row = 0; row < rows; row++) {
      for (int index = 0; index < values.length; index++) {
        values[index] = columnValues[index][row];
      }
      key.reset();
      interleave(values, key);
      consumer.accept(row, key);
    }
  }

  @Override
  public void encode(VectorSchemaRoot batch, int row, KeyBytes key) {
    for (int index = 0; index < columns.size(); index++) {
      ZColumn column = columns.get(index);
      FieldVector vector = batch.getVector(column.index());
      values[index] = vector.isNull(row) ? 0 : column.scale(column.orderedBits(vector, row));
    }
    interleave(values, key);
  }

  /**
   * Appends the interleaved bits of {@code values} to {@code key}, the fastest way for their count.
   */
  private void interleave(long[] values, KeyBytes key) {
    if (values.length == 2) {
      interleavePair(values[0], values[1], key);
    } else if (spread != null) {
      interleaveBytewise(values, spread, key);
    } else {
      interleaveBitwise(values, key);
    }
  }

  /**
   * The same bits as the bit-by-bit loop for two columns, the usual z-order, a 32-bit half of each
   * at a time: each half's bits are moved to the even bit positions of a word by five shifts and
   * masks, the first column's then one place up, so each 64-bit word of the key takes about twenty
   * operations and no table lookup.
   */
  static void interleavePair(long first, long second, KeyBytes key) {
    key.putLong((evenBits(first >>> 32) << 1) | evenBits(second >>> 32));
    key.putLong((evenBits(first) << 1) | evenBits(second));
  }

  /** The low 32 bits of {@code value}, bit i moved to bit 2i. */
  private static long evenBits(long value) {
    long bits = value & 0xFFFF_FFFFL;
    bits = (bits | (bits << 16)) & 0x0000_FFFF_0000_FFFFL;
    bits = (bits | (bits << 8)) & 0x00FF_00FF_00FF_00FFL;
    bits = (bits | (bits << 4)) & 0x0F0F_0F0F_0F0F_0F0FL;
    bits = (bits | (bits << 2)) & 0x3333_3333_3333_3333L;
    return (bits | (bits << 1)) & 0x5555_5555_5555_5555L;
  }

  /**
   * Interleaves the bits of {@code values}, most significant first, the first value's bit leading.
   */
  static void interleaveBitwise(long[] values, KeyBytes key) {
    int current = 0;
    int bits = 0;
    for (int bit = 63; bit >= 0; bit--) {
      for (long value : values) {
        current = (current << 1) | (int) ((value >>> bit) & 1);
        if (++bits == 8) {
          key.put(current);
          current = 0;
          bits = 0;
        }
      }
    }
  }

  /**
   * The same bits as the bit-by-bit loop, a byte position at a time: the k columns' bytes at one
   * position interleave into 8k bits (k bytes), built from k table lookups.
   */
  static void interleaveBytewise(long[] values, long[] spread, KeyBytes key) {
    int count = values.length;
    // the key is 8 * count bytes: collected into whole words, written a word at a time
    long pending = 0;
    int pendingBytes = 0;
    for (int shift = 56; shift >= 0; shift -= 8) {
      long word = 0;
      for (int index = 0; index < count; index++) {
        word |= spread[(int) (values[index] >>> shift) & 0xFF] << (count - 1 - index);
      }
      if (count == Long.BYTES) {
        key.putLong(word);
        continue;
      }
      for (int byteIndex = count - 1; byteIndex >= 0; byteIndex--) {
        pending = (pending << 8) | ((word >>> (byteIndex * 8)) & 0xFF);
        if (++pendingBytes == Long.BYTES) {
          key.putLong(pending);
          pending = 0;
          pendingBytes = 0;
        }
      }
    }
  }

  @Override
  public byte[] leadingValue(VectorSchemaRoot batch, int row) {
    return null;
  }

  /** A value as 64 bits whose unsigned order is the value order (strings: first eight bytes). */
  static long orderedBits(Object value) {
    if (value instanceof Integer number) {
      return number.longValue() ^ Long.MIN_VALUE;
    } else if (value instanceof Long number) {
      return number ^ Long.MIN_VALUE;
    } else if (value instanceof byte[] bytes) {
      long prefix = 0;
      for (int index = 0; index < 8; index++) {
        prefix = (prefix << 8) | (index < bytes.length ? bytes[index] & 0xFF : 0);
      }
      return prefix;
    } else if (value instanceof Double number) {
      long bits = Double.doubleToLongBits(number);
      return bits < 0 ? ~bits : bits ^ Long.MIN_VALUE;
    } else if (value instanceof Float number) {
      long bits = Double.doubleToLongBits(number.doubleValue());
      return bits < 0 ? ~bits : bits ^ Long.MIN_VALUE;
    } else if (value instanceof Boolean flag) {
      return flag ? Long.MIN_VALUE : 1;
    } else if (value instanceof BigDecimal decimal) {
      BigInteger unscaled = decimal.unscaledValue();
      long clamped =
          unscaled.bitLength() < 64
              ? unscaled.longValue()
              : unscaled.signum() < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
      return clamped ^ Long.MIN_VALUE;
    }
    throw new IllegalArgumentException(
        "Cannot z-order by a value of " + value.getClass().getSimpleName());
  }

  private static ZColumn column(int index, Types.NestedField field, FileGroup group) {
    Type type = field.type();
    ColumnValues.Reader reader = ColumnValues.reader(type, false);
    boolean integerLike =
        switch (type.typeId()) {
          case INTEGER, LONG, DATE, TIME, TIMESTAMP -> true;
          default -> false;
        };
    if (!integerLike) {
      return new ZColumn(index, reader, 0, 0);
    }
    ColumnSummary summary = group.columnSummary(field.fieldId(), type);
    Optional<Object> lowerValue = summary.lowerValue(type);
    Optional<Object> upperValue = summary.upperValue(type);
    if (lowerValue.isEmpty() || upperValue.isEmpty()) {
      return new ZColumn(index, reader, 0, 0);
    }
    long lower = orderedBits(lowerValue.get());
    long upper = orderedBits(upperValue.get());
    if (Long.compareUnsigned(lower, upper) >= 0) {
      return new ZColumn(index, reader, 0, 0);
    }
    return new ZColumn(index, reader, lower, Long.numberOfLeadingZeros(upper - lower));
  }

  /**
   * One z-ordered column: where it is in the batch, how to read it, and the rescaling: subtract
   * {@code lower} (unsigned), then shift left by {@code shift} so the range fills all 64 bits.
   */
  private record ZColumn(int index, ColumnValues.Reader reader, long lower, int shift) {
    /**
     * The column's ordered bits at {@code row}, read without boxing for the integer-like vectors.
     */
    long orderedBits(FieldVector vector, int row) {
      if (vector instanceof BigIntVector longs) {
        return longs.get(row) ^ Long.MIN_VALUE;
      } else if (vector instanceof TimeStampVector timestamps) {
        return timestamps.get(row) ^ Long.MIN_VALUE;
      } else if (vector instanceof IntVector ints) {
        return (long) ints.get(row) ^ Long.MIN_VALUE;
      } else if (vector instanceof DateDayVector days) {
        return (long) days.get(row) ^ Long.MIN_VALUE;
      } else if (vector instanceof TimeMicroVector times) {
        return times.get(row) ^ Long.MIN_VALUE;
      }
      return ZOrderKeyEncoder.orderedBits(reader.read(vector, row));
    }

    /**
     * Writes each of the first {@code rows} rows' scaled ordered bits (0 for a null) to {@code
     * target}, reading integer-like vectors' buffers by memory address.
     */
    void readAll(FieldVector vector, int rows, long[] target) {
      int width =
          vector instanceof BigIntVector
                  || vector instanceof TimeStampVector
                  || vector instanceof TimeMicroVector
              ? Long.BYTES
              : vector instanceof IntVector || vector instanceof DateDayVector ? Integer.BYTES : 0;
      if (width == 0) {
        for (int row = 0; row < rows; row++) {
          target[row] = vector.isNull(row) ? 0 : scale(orderedBits(vector, row));
        }
        return;
      }
      long data = vector.getDataBuffer().memoryAddress();
      long validity = vector.getNullCount() == 0 ? 0 : vector.getValidityBuffer().memoryAddress();
      for (int row = 0; row < rows; row++) {
        if (validity != 0 && (MemoryUtil.getByte(validity + (row >>> 3)) & (1 << (row & 7))) == 0) {
          target[row] = 0;
          continue;
        }
        long value =
            width == Long.BYTES
                ? MemoryUtil.getLong(data + (long) row * Long.BYTES)
                : MemoryUtil.getInt(data + (long) row * Integer.BYTES);
        target[row] = scale(value ^ Long.MIN_VALUE);
      }
    }

    long scale(long bits) {
      if (shift == 0 && lower == 0) {
        return bits;
      }
      long offset = Long.compareUnsigned(bits, lower) < 0 ? 0 : bits - lower;
      long limit = -1L >>> shift;
      return (Long.compareUnsigned(offset, limit) > 0 ? limit : offset) << shift;
    }
  }
}
