package dev.lakeops.rewrite.sort;

import static java.util.Objects.requireNonNull;

import dev.lakeops.rewrite.codec.ShortValueCopy;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.VarBinaryVector;

/**
 * Fills a batch's key column with one key per row, in row order, by memory address: the column is
 * allocated once for the batch's rows (and grown only if the keys outgrow the guess), every key is
 * non-null, and the validity bits are set in bulk at the end.
 */
final class KeyColumnWriter {
  private final VarBinaryVector keys;
  private final int rows;
  private int row;
  private int position;

  /** Allocates {@code keys} for {@code rows} keys of about {@code bytesPerKey} bytes each. */
  KeyColumnWriter(VarBinaryVector keys, int rows, int bytesPerKey) {
    this.keys = requireNonNull(keys, "keys is null");
    this.rows = rows;
    keys.allocateNew((long) rows * Math.max(1, bytesPerKey), rows);
  }

  /** Appends the key of the next row. */
  void put(KeyBytes key) {
    int length = key.length();
    while (keys.getDataBuffer().capacity() < (long) position + length) {
      keys.reallocDataBuffer();
    }
    ShortValueCopy.copyToMemory(
        key.array(),
        0,
        keys.getDataBuffer().memoryAddress() + position,
        length,
        keys.getDataBuffer().capacity() - position);
    position += length;
    row++;
    MemoryUtil.putInt(
        keys.getOffsetBuffer().memoryAddress() + (long) row * BaseVariableWidthVector.OFFSET_WIDTH,
        position);
  }

  /** Marks every key valid and sets the column's value count; returns the key bytes written. */
  int finish() {
    if (row != rows) {
      throw new IllegalStateException("Wrote " + row + " keys for " + rows + " rows");
    }
    ColumnGather.setValidRange(keys.getValidityBuffer().memoryAddress(), 0, rows);
    keys.setLastSet(rows - 1);
    keys.setValueCount(rows);
    return position;
  }
}
