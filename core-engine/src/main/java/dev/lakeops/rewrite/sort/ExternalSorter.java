package dev.lakeops.rewrite.sort;

import static java.util.Objects.requireNonNull;

import dev.lakeops.rewrite.arrow.ColumnTransfer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.iceberg.data.Record;

/**
 * An external merge sort over Arrow batches. Rows are gathered into batches of
 * {@link #BATCH_ROWS} rows with their sort keys; while the batches fit the run allocator they stay
 * in memory. When the next batch would not fit, the batches are sorted (an index array ordered by
 * key) and spilled as one sorted run, an Arrow IPC file. {@link #finish} then either emits the
 * in-memory rows in order, when nothing spilled, or k-way merges the runs, with a priority queue
 * over run readers that each hold one batch, merging in several passes if there are more runs than
 * the merge allocator can hold readers for.
 *
 * <p>Memory: the run allocator bounds the in-memory batches and, later, the merge's readers; the
 * spill allocator bounds the batch a run is written from. Both are hard Arrow limits.
 */
final class ExternalSorter implements AutoCloseable {
  static final int BATCH_ROWS = 8192;
  private static final int BATCH_SHIFT = 13;
  private static final double FILL_FRACTION = 0.85;
  private static final int MAX_FAN_IN = 512;

  private final Schema schema;
  private final List<ColumnTransfer> transfers;
  private final SortKeyEncoder encoder;
  private final BufferAllocator runAllocator;
  private final BufferAllocator spillAllocator;
  private final SpillFiles spillFiles;
  private final KeyBytes key = new KeyBytes();
  private final List<VectorSchemaRoot> batches = new ArrayList<>();
  private final List<Path> runs = new ArrayList<>();
  private VectorSchemaRoot current;
  private long largestBatchBytes;
  private long largestRunBatchBytes;
  private int maxFanIn = MAX_FAN_IN;

  /**
   * @param schema the batch schema, the key column last
   * @param transfers how each data column is filled from an Iceberg record
   */
  ExternalSorter(
      Schema schema,
      List<ColumnTransfer> transfers,
      SortKeyEncoder encoder,
      BufferAllocator runAllocator,
      BufferAllocator spillAllocator,
      SpillFiles spillFiles) {
    this.schema = requireNonNull(schema, "schema is null");
    this.transfers = List.copyOf(requireNonNull(transfers, "transfers is null"));
    this.encoder = requireNonNull(encoder, "encoder is null");
    this.runAllocator = requireNonNull(runAllocator, "runAllocator is null");
    this.spillAllocator = requireNonNull(spillAllocator, "spillAllocator is null");
    this.spillFiles = requireNonNull(spillFiles, "spillFiles is null");
  }

  /** Caps how many runs one merge pass reads at once (tests force multi-pass merges with it). */
  ExternalSorter withMaxFanIn(int value) {
    this.maxFanIn = Math.max(2, value);
    return this;
  }

  void add(Record record) throws IOException {
    if (current == null) {
      current = VectorSchemaRoot.create(schema, runAllocator);
    }
    int row = current.getRowCount();
    List<FieldVector> vectors = current.getFieldVectors();
    for (int column = 0; column < transfers.size(); column++) {
      Object value = record.get(column);
      if (value == null) {
        vectors.get(column).setNull(row);
      } else {
        transfers.get(column).set(vectors.get(column), row, value);
      }
    }
    current.setRowCount(row + 1);
    if (row + 1 == BATCH_ROWS) {
      closeCurrentBatch();
    }
  }

  /** Emits every row added, in key order, to {@code sink}. */
  void finish(RowSink sink) throws IOException {
    closeCurrentBatch();
    if (runs.isEmpty()) {
      emitSorted(sink);
      releaseBatches();
      return;
    }
    if (!batches.isEmpty()) {
      spillRun();
    }
    mergeRuns(sink);
  }

  int runCount() {
    return spillFiles.filesWritten();
  }

  private void closeCurrentBatch() throws IOException {
    if (current == null) {
      return;
    }
    VectorSchemaRoot batch = current;
    current = null;
    if (batch.getRowCount() == 0) {
      batch.close();
      return;
    }
    VarBinaryVector keys = SortKeys.keyVector(batch);
    for (int row = 0; row < batch.getRowCount(); row++) {
      key.reset();
      encoder.encode(batch, row, key);
      keys.setSafe(row, key.array(), 0, key.length());
    }
    batch.setRowCount(batch.getRowCount());
    batches.add(batch);
    largestBatchBytes = Math.max(largestBatchBytes, RowCopier.bufferBytes(batch));
    if (runAllocator.getAllocatedMemory() + 2 * largestBatchBytes > runAllocator.getLimit() * FILL_FRACTION) {
      spillRun();
    }
  }

  private void spillRun() throws IOException {
    Path file = spillFiles.newRunFile();
    try (RunWriter writer = new RunWriter(file, schema, spillAllocator)) {
      emitSorted(writer);
      writer.finish();
      largestRunBatchBytes = Math.max(largestRunBatchBytes, writer.largestBatchBytes());
    }
    spillFiles.finished(file);
    runs.add(file);
    releaseBatches();
  }

  /** Sorts the in-memory batches by an index array and emits their rows in key order. */
  private void emitSorted(RowSink sink) throws IOException {
    int rows = batches.stream().mapToInt(VectorSchemaRoot::getRowCount).sum();
    int[] indexes = new int[rows];
    int next = 0;
    for (int batch = 0; batch < batches.size(); batch++) {
      for (int row = 0; row < batches.get(batch).getRowCount(); row++) {
        indexes[next++] = (batch << BATCH_SHIFT) | row;
      }
    }
    List<VarBinaryVector> keys = batches.stream().map(SortKeys::keyVector).toList();
    IndexSorter.sort(
        indexes,
        rows,
        (left, right) ->
            SortKeys.compare(
                keys.get(left >>> BATCH_SHIFT), left & (BATCH_ROWS - 1),
                keys.get(right >>> BATCH_SHIFT), right & (BATCH_ROWS - 1)));
    for (int index : indexes) {
      sink.append(batches.get(index >>> BATCH_SHIFT), index & (BATCH_ROWS - 1));
    }
  }

  private void mergeRuns(RowSink sink) throws IOException {
    int fanIn = fanIn();
    while (runs.size() > fanIn) {
      List<Path> inputs = new ArrayList<>(runs.subList(0, fanIn));
      Path merged = spillFiles.newRunFile();
      try (RunWriter writer = new RunWriter(merged, schema, spillAllocator)) {
        RunMerger.merge(inputs, runAllocator, writer);
        writer.finish();
      }
      spillFiles.finished(merged);
      for (Path input : inputs) {
        spillFiles.delete(input);
      }
      runs.subList(0, fanIn).clear();
      runs.add(merged);
    }
    RunMerger.merge(runs, runAllocator, sink);
    for (Path run : runs) {
      spillFiles.delete(run);
    }
    runs.clear();
  }

  /** How many run readers, each holding one batch, fit the run allocator with room to spare. */
  private int fanIn() {
    long perReader = Math.max(1, 3 * largestRunBatchBytes);
    long fitting = (long) (runAllocator.getLimit() * FILL_FRACTION) / perReader;
    return (int) Math.max(2, Math.min(maxFanIn, fitting));
  }

  private void releaseBatches() {
    try {
      AutoCloseables.close(batches);
    } catch (Exception e) {
      throw new IllegalStateException("Cannot release sort batches", e);
    } finally {
      batches.clear();
    }
  }

  @Override
  public void close() {
    try {
      AutoCloseables.close(batches, current == null ? List.of() : List.of(current));
    } catch (Exception e) {
      throw new IllegalStateException("Cannot release sort batches", e);
    } finally {
      batches.clear();
      current = null;
    }
  }
}
