package dev.lakeops.rewrite.sort;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.ReferenceManager;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Gathers rows picked one by one from other batches into one target batch, copying column by column
 * in bulk ({@link ColumnGather}): rows are only noted when added, and copied on {@link
 * #copyPending()}, so each vector's capacity and bookkeeping are handled once per copy instead of
 * once per row. The gather notes which columns of the picked sources hold nulls, so columns without
 * any are copied without looking at validity bits.
 */
final class RowGather {
  private final VectorSchemaRoot target;
  private final int capacity;
  private final SourceColumns[] sources;
  private final int[] rows;
  private final long[] valueAddresses;
  private final int[] valueLengths;
  private final long[] columnsWithNulls;
  private SourceColumns lastSource;
  private int pending;
  private int copied;

  RowGather(VectorSchemaRoot target, int capacity) {
    this.target = requireNonNull(target, "target is null");
    this.capacity = capacity;
    this.sources = new SourceColumns[capacity];
    this.rows = new int[capacity];
    this.valueAddresses = new long[capacity];
    this.valueLengths = new int[capacity];
    this.columnsWithNulls = new long[ColumnSet.words(target.getFieldVectors().size())];
  }

  /** Notes row {@code row} of {@code source}; returns whether the target is now full. */
  boolean add(SourceColumns source, int row) {
    if (source != lastSource) {
      if (columnsWithNulls.length == 1) {
        columnsWithNulls[0] |= source.firstColumnsWithNulls();
      } else {
        ColumnSet.addAll(columnsWithNulls, source.columnsWithNulls());
      }
      lastSource = source;
    }
    sources[pending] = source;
    rows[pending] = row;
    pending++;
    return copied + pending == capacity;
  }

  /** Copies the noted rows into the target, after the rows copied before. */
  void copyPending() {
    if (pending == 0) {
      return;
    }
    ColumnGather.copyColumns(
        target.getFieldVectors(),
        copied,
        new GatherPicks(sources, rows, pending, valueAddresses, valueLengths),
        columnsWithNulls);
    copied += pending;
    Arrays.fill(sources, 0, pending, null);
    pending = 0;
    lastSource = null;
    Arrays.fill(columnsWithNulls, 0);
    target.setRowCount(copied);
  }

  /** The target, with every noted row copied in. */
  VectorSchemaRoot batch() {
    copyPending();
    return target;
  }

  /** Rows noted or copied since the last {@link #clear()}. */
  int rows() {
    return copied + pending;
  }

  /** Empties the target for reuse, keeping its buffers. */
  void clear() {
    Arrays.fill(sources, 0, pending, null);
    pending = 0;
    copied = 0;
    lastSource = null;
    Arrays.fill(columnsWithNulls, 0);
    for (FieldVector vector : target.getFieldVectors()) {
      empty(vector);
    }
    target.setRowCount(0);
  }

  /**
   * Empties a vector for the next gather. Arrow's {@code reset()} zeroes every buffer, values
   * included; the gathers write every value byte, offset and validity bit of the rows they copy, so
   * only the validity bits are cleared here (an eighth of a byte a row), and the first offset.
   */
  private static void empty(FieldVector vector) {
    if (vector instanceof BaseVariableWidthVector variable) {
      ArrowBuf validity = variable.getValidityBuffer();
      validity.setZero(0, validity.capacity());
      variable.getOffsetBuffer().setInt(0, 0);
      variable.setLastSet(-1);
      variable.setValueCount(0);
    } else if (vector instanceof BaseFixedWidthVector fixed && !(vector instanceof BitVector)) {
      ArrowBuf validity = fixed.getValidityBuffer();
      validity.setZero(0, validity.capacity());
      fixed.setValueCount(0);
    } else {
      vector.reset();
    }
  }

  /**
   * Memory the allocator accounts to {@code batch}'s buffers: what they hold, rounded up as Arrow
   * allocates, each allocation counted once however many buffers slice it.
   */
  static long heldBytes(VectorSchemaRoot batch) {
    Set<ReferenceManager> allocations = Collections.newSetFromMap(new IdentityHashMap<>());
    long bytes = 0;
    for (FieldVector vector : batch.getFieldVectors()) {
      for (ArrowBuf buffer : vector.getBuffers(false)) {
        if (allocations.add(buffer.getReferenceManager())) {
          bytes += buffer.getReferenceManager().getAccountedSize();
        }
      }
    }
    return bytes;
  }

  /** Bytes the buffers of {@code batch}'s rows take. */
  static long bufferBytes(VectorSchemaRoot batch) {
    long bytes = 0;
    for (FieldVector vector : batch.getFieldVectors()) {
      bytes += vector.getBufferSizeFor(batch.getRowCount());
    }
    return bytes;
  }
}
