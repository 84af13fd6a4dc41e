package dev.lakeops.rewrite.sort;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Gathers rows picked one by one from other batches into one target batch, copying column by
 * column in bulk ({@link ColumnGather}): rows are only noted when added, and copied on {@link
 * #copyPending()}, so each vector's capacity and bookkeeping are handled once per copy instead of
 * once per row.
 */
final class RowGather {
  private final VectorSchemaRoot target;
  private final int capacity;
  private final VectorSchemaRoot[] sources;
  private final int[] rows;
  private final SourceColumns[] sourceColumns;
  private final Map<VectorSchemaRoot, SourceColumns> columnsBySource = new IdentityHashMap<>();
  private int pending;
  private int copied;

  RowGather(VectorSchemaRoot target, int capacity) {
    this.target = requireNonNull(target, "target is null");
    this.capacity = capacity;
    this.sources = new VectorSchemaRoot[capacity];
    this.rows = new int[capacity];
    this.sourceColumns = new SourceColumns[capacity];
  }

  /** Notes row {@code row} of {@code source}; returns whether the target is now full. */
  boolean add(VectorSchemaRoot source, int row) {
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
    VectorSchemaRoot lastSource = null;
    SourceColumns columns = null;
    for (int index = 0; index < pending; index++) {
      if (sources[index] != lastSource) {
        lastSource = sources[index];
        columns = columnsBySource.computeIfAbsent(lastSource, SourceColumns::of);
      }
      sourceColumns[index] = columns;
    }
    // the sources' buffers may change before the next copy: read their addresses afresh then
    columnsBySource.clear();
    List<FieldVector> targets = target.getFieldVectors();
    for (int column = 0; column < targets.size(); column++) {
      ColumnGather.copy(targets.get(column), column, copied, sourceColumns, rows, pending);
    }
    Arrays.fill(sourceColumns, 0, pending, null);
    copied += pending;
    Arrays.fill(sources, 0, pending, null);
    pending = 0;
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
    target.getFieldVectors().forEach(FieldVector::reset);
    target.setRowCount(0);
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
