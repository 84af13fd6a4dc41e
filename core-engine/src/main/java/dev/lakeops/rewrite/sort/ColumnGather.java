package dev.lakeops.rewrite.sort;

import dev.lakeops.rewrite.codec.ShortValueCopy;
import java.util.List;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;

/**
 * Copies picked rows of one column from several source vectors into consecutive rows of a target
 * vector. Fixed-width and variable-width vectors are copied by memory address, once the target's
 * buffers have been grown to hold every row and byte of the copy, so there is no per-value capacity
 * check, bounds check or hole filling; when no picked source holds a null in the column, validity
 * bits are not read, and the target's are set in bulk. Values of up to {@value #SHORT_COPY_BYTES}
 * bytes are copied as four words, values of up to {@value #WORD_COPY_BYTES} bytes (URLs, user
 * agents) as eight, when the source has the bytes past the value to read: a bulk copy costs a call
 * whatever its length. Other vectors (booleans, nested types) fall back to Arrow's {@code
 * copyFromSafe}.
 */
final class ColumnGather {
  private static final int OFFSET_WIDTH = BaseVariableWidthVector.OFFSET_WIDTH;

  /** Values up to this long are copied as four words. */
  private static final int SHORT_COPY_BYTES = ShortValueCopy.WORD_COPY_BYTES;

  /**
   * Values up to this long are copied in whole words, eight at most; the target keeps that much
   * room past its last value.
   */
  static final int WORD_COPY_BYTES = 2 * SHORT_COPY_BYTES;

  private ColumnGather() {}

  /**
   * Copies every column of each picked row, column {@code i} of the sources into {@code
   * targets.get(i)}, the {@code i}-th pick into row {@code firstTargetRow + i}, as {@link #copy}
   * does. {@code columnsWithNulls} is a {@link ColumnSet} of the columns in which some picked
   * source holds a null.
   */
  static void copyColumns(
      List<FieldVector> targets, int firstTargetRow, GatherPicks picks, long[] columnsWithNulls) {
    for (int column = 0; column < targets.size(); column++) {
      copy(
          targets.get(column),
          column,
          firstTargetRow,
          picks,
          ColumnSet.contains(columnsWithNulls, column));
    }
  }

  /**
   * Copies column {@code column} of each picked row, the {@code i}-th into row {@code
   * firstTargetRow + i} of {@code target}. Rows before {@code firstTargetRow} must have been
   * written already; the caller sets the target's value count afterwards. {@code mayHoldNulls} is
   * false only if no picked source holds a null in the column.
   */
  static void copy(
      FieldVector target, int column, int firstTargetRow, GatherPicks picks, boolean mayHoldNulls) {
    if (target instanceof BaseVariableWidthVector variable) {
      copyVariableWidth(variable, column, firstTargetRow, picks, mayHoldNulls);
    } else if (target instanceof BaseFixedWidthVector fixed && !(target instanceof BitVector)) {
      copyFixedWidth(fixed, column, firstTargetRow, picks, mayHoldNulls);
    } else {
      for (int index = 0; index < picks.count(); index++) {
        target.copyFromSafe(
            picks.rows()[index], firstTargetRow + index, picks.sources()[index].vector(column));
      }
    }
  }

  private static void copyFixedWidth(
      BaseFixedWidthVector target,
      int column,
      int firstTargetRow,
      GatherPicks picks,
      boolean mayHoldNulls) {
    SourceColumns[] sources = picks.sources();
    int[] rows = picks.rows();
    int count = picks.count();
    while (target.getValueCapacity() < firstTargetRow + count) {
      target.reAlloc();
    }
    int width = target.getTypeWidth();
    long validity = target.getValidityBuffer().memoryAddress();
    long data = target.getDataBuffer().memoryAddress() + (long) firstTargetRow * width;
    if (mayHoldNulls) {
      for (int index = 0; index < count; index++) {
        copyValidity(sources[index], column, rows[index], validity, firstTargetRow + index);
      }
    } else {
      setValidRange(validity, firstTargetRow, count);
    }
    switch (width) {
      case Long.BYTES -> {
        for (int index = 0; index < count; index++) {
          long from = sources[index].dataAddress(column) + (long) rows[index] * Long.BYTES;
          MemoryUtil.putLong(data + (long) index * Long.BYTES, MemoryUtil.getLong(from));
        }
      }
      case Integer.BYTES -> {
        for (int index = 0; index < count; index++) {
          long from = sources[index].dataAddress(column) + (long) rows[index] * Integer.BYTES;
          MemoryUtil.putInt(data + (long) index * Integer.BYTES, MemoryUtil.getInt(from));
        }
      }
      default -> {
        for (int index = 0; index < count; index++) {
          long from = sources[index].dataAddress(column) + (long) rows[index] * width;
          MemoryUtil.copyMemory(from, data + (long) index * width, width);
        }
      }
    }
  }

  /**
   * Two passes: the first reads every picked value's offsets (its address and length), the second
   * copies the values. Each pass's loads do not wait on one another, so the processor keeps many of
   * them in flight: the sources are usually out of its cache.
   */
  private static void copyVariableWidth(
      BaseVariableWidthVector target,
      int column,
      int firstTargetRow,
      GatherPicks picks,
      boolean mayHoldNulls) {
    SourceColumns[] sources = picks.sources();
    int[] rows = picks.rows();
    int count = picks.count();
    long[] addresses = picks.valueAddresses();
    int[] lengths = picks.valueLengths();
    while (target.getValueCapacity() < firstTargetRow + count) {
      target.reallocValidityAndOffsetBuffers();
    }
    long validity = target.getValidityBuffer().memoryAddress();
    long bytes = 0;
    for (int index = 0; index < count; index++) {
      SourceColumns source = sources[index];
      int row = rows[index];
      int length = 0;
      if (!mayHoldNulls || copyValidity(source, column, row, validity, firstTargetRow + index)) {
        long sourceOffsets = source.offsetAddress(column) + (long) row * OFFSET_WIDTH;
        int from = MemoryUtil.getInt(sourceOffsets);
        length = MemoryUtil.getInt(sourceOffsets + OFFSET_WIDTH) - from;
        long address = source.dataAddress(column) + from;
        addresses[index] = address;
        bytes += length;
        if (length > 0
            && length <= WORD_COPY_BYTES
            && address + WORD_COPY_BYTES > source.dataEndAddress(column)) {
          // the four-word copy would read past the source's data: noted as a negative length
          length = -length;
        }
      }
      lengths[index] = length;
    }
    int start = firstTargetRow == 0 ? 0 : MemoryUtil.getInt(offsetAddress(target, firstTargetRow));
    long needed = start + bytes + WORD_COPY_BYTES;
    long data =
        target.getDataBuffer().capacity() < needed
            ? grownDataBuffer(target, needed)
            : target.getDataBuffer().memoryAddress();
    long targetOffsets =
        target.getOffsetBuffer().memoryAddress() + (long) firstTargetRow * OFFSET_WIDTH;
    int position = start;
    MemoryUtil.putInt(targetOffsets, position);
    for (int index = 0; index < count; index++) {
      int length = lengths[index];
      long from = addresses[index];
      long to = data + position;
      if (length > 0 && length <= SHORT_COPY_BYTES) {
        // always four words, whatever the length: no loop, so no mispredicted loop exit
        copyFourWords(from, to);
      } else if (length > 0 && length <= WORD_COPY_BYTES) {
        copyFourWords(from, to);
        copyFourWords(from + SHORT_COPY_BYTES, to + SHORT_COPY_BYTES);
      } else if (length != 0) {
        length = Math.abs(length);
        MemoryUtil.copyMemory(from, to, length);
      }
      position += length;
      MemoryUtil.putInt(targetOffsets + (long) (index + 1) * OFFSET_WIDTH, position);
    }
    if (!mayHoldNulls) {
      setValidRange(validity, firstTargetRow, count);
    }
    target.setLastSet(firstTargetRow + count - 1);
  }

  private static void copyFourWords(long from, long to) {
    MemoryUtil.putLong(to, MemoryUtil.getLong(from));
    MemoryUtil.putLong(to + Long.BYTES, MemoryUtil.getLong(from + Long.BYTES));
    MemoryUtil.putLong(to + 2 * Long.BYTES, MemoryUtil.getLong(from + 2 * Long.BYTES));
    MemoryUtil.putLong(to + 3 * Long.BYTES, MemoryUtil.getLong(from + 3 * Long.BYTES));
  }

  /**
   * Allocates {@code target} for {@code rows} rows holding as many value bytes as all of {@code
   * source}'s {@code rows} rows, so that a gather of those rows does not have to grow it.
   */
  static void allocateFor(FieldVector target, FieldVector source, int rows) {
    if (target instanceof BaseVariableWidthVector variable
        && source instanceof BaseVariableWidthVector from) {
      long bytes = from.getOffsetBuffer().getInt((long) rows * OFFSET_WIDTH);
      variable.allocateNew(bytes + WORD_COPY_BYTES, rows);
    } else if (target instanceof BaseFixedWidthVector fixed) {
      fixed.allocateNew(rows);
    }
  }

  /** Grows {@code target}'s data buffer to at least {@code bytes}; returns its new address. */
  private static long grownDataBuffer(BaseVariableWidthVector target, long bytes) {
    if (bytes > Integer.MAX_VALUE) {
      throw new IllegalStateException(
          "A variable-width batch column would exceed 2 GiB: " + bytes + " bytes");
    }
    while (target.getDataBuffer().capacity() < bytes) {
      target.reallocDataBuffer();
    }
    return target.getDataBuffer().memoryAddress();
  }

  private static long offsetAddress(BaseVariableWidthVector vector, int row) {
    return vector.getOffsetBuffer().memoryAddress() + (long) row * OFFSET_WIDTH;
  }

  /** Copies one row's validity bit; returns whether the row holds a value. */
  private static boolean copyValidity(
      SourceColumns source, int column, int row, long targetValidity, int targetRow) {
    boolean valid = isValid(source.validityAddress(column), row);
    setValidity(targetValidity, targetRow, valid);
    return valid;
  }

  private static boolean isValid(long validity, int row) {
    return ((MemoryUtil.getByte(validity + (row >> 3)) >> (row & 7)) & 1) != 0;
  }

  private static void setValidity(long validity, int row, boolean valid) {
    long address = validity + (row >> 3);
    byte current = MemoryUtil.getByte(address);
    int bit = 1 << (row & 7);
    MemoryUtil.putByte(address, (byte) (valid ? current | bit : current & ~bit));
  }

  /** Marks rows {@code first} to {@code first + count - 1} valid. */
  static void setValidRange(long validity, int first, int count) {
    int row = first;
    int end = first + count;
    while (row < end && (row & 7) != 0) {
      setValidity(validity, row++, true);
    }
    // whole bytes a word at a time where possible: Unsafe.setMemory costs a native call per range
    long address = validity + (row >>> 3);
    long wholeBytesEnd = validity + (end >>> 3);
    for (; address + Long.BYTES <= wholeBytesEnd; address += Long.BYTES) {
      MemoryUtil.putLong(address, -1L);
    }
    for (; address < wholeBytesEnd; address++) {
      MemoryUtil.putByte(address, (byte) 0xFF);
    }
    row = Math.max(row, end & ~7);
    while (row < end) {
      setValidity(validity, row++, true);
    }
  }
}
