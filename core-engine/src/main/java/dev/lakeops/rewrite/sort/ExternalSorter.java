package dev.lakeops.rewrite.sort;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * An external merge sort over Arrow batches. Batches of up to {@link #BATCH_ROWS} rows come in
 * whole (allocated from the run allocator); each gets its rows' sort keys, and a heap copy of the
 * keys' leading bytes, and is copied at once with its rows in key order ({@link BatchRowOrder}),
 * while it is still in the processor's cache. While the batches fit the run allocator they stay in
 * memory. When the next batch would not fit, the batches are merged ({@link SortedBatchMerge},
 * reading each front to back) and spilled as one sorted run, a file in {@link RunFormat}. {@link
 * #finish} then either emits the in-memory rows in order, when nothing spilled, or k-way merges the
 * runs, with a priority queue over run readers that each hold one batch, merging in several passes
 * if there are more runs than the merge allocator can hold readers for.
 *
 * <p>Memory: the run allocator bounds the in-memory batches and, later, the merge's readers; the
 * spill allocator bounds the batch a run is written from. Both are hard Arrow limits. While rows
 * come in, nothing else of the group holds memory and runs grow to the run allocator's limit; once
 * rows go out, the output writer takes its share, so the merge's readers, and rows still held in
 * memory at the end, get at most {@code mergeBytes} of the run allocator: more than that is spilled
 * as a run first.
 */
final class ExternalSorter implements AutoCloseable {
  static final int BATCH_ROWS = 8192;
  private static final double FILL_FRACTION = 0.85;
  private static final int MAX_FAN_IN = 512;
  private static final double READER_HEADROOM = 2.5;

  private final Schema schema;

  /**
   * The schema runs are spilled in: the batch schema without its key column (keys are encoded again
   * on reading).
   */
  private final Schema spillSchema;

  private final SortKeyEncoder encoder;
  private final BufferAllocator runAllocator;
  private final long mergeBytes;
  private final BufferAllocator spillAllocator;
  private final SpillFiles spillFiles;
  private final BatchKeyColumn keyColumn;
  private final BatchRowOrder rowOrder = new BatchRowOrder();
  private final List<VectorSchemaRoot> batches = new ArrayList<>();
  private final List<long[]> prefixes = new ArrayList<>();

  /** Prefix arrays of released batches, reused for the next ones: a run holds the same number. */
  private final ArrayDeque<long[]> freePrefixArrays = new ArrayDeque<>();

  /** The batch being copied in key order, once per row: the sources of its sorted copy's picks. */
  private final SourceColumns[] sameSource = new SourceColumns[BATCH_ROWS];

  private final long[] valueAddresses = new long[BATCH_ROWS];
  private final int[] valueLengths = new int[BATCH_ROWS];

  /** The prefixes of the batch being added, in row order. */
  private final long[] batchPrefixes = new long[BATCH_ROWS * SortKeys.PREFIX_SLOTS];

  private final List<Path> runs = new ArrayList<>();
  private long largestBatchBytes;

  /**
   * The most a batch being decoded ahead may take: twice the memory the largest batch passed to
   * {@link #add} held (Arrow rounds buffers up to powers of two, and a growing buffer holds its old
   * and new memory while it copies).
   */
  private long readAheadBatchBytes;

  private long largestRunBatchBytes;
  private int maxFanIn = MAX_FAN_IN;
  private int batchesReadAhead;

  /**
   * @param schema the batch schema, the key column last
   * @param mergeBytes how much of {@code runAllocator} rows held and run readers may take once the
   *     sorted rows are emitted (at most its limit)
   */
  ExternalSorter(
      Schema schema,
      SortKeyEncoder encoder,
      BufferAllocator runAllocator,
      long mergeBytes,
      BufferAllocator spillAllocator,
      SpillFiles spillFiles) {
    this.schema = requireNonNull(schema, "schema is null");
    this.spillSchema = new Schema(schema.getFields().subList(0, schema.getFields().size() - 1));
    this.encoder = requireNonNull(encoder, "encoder is null");
    this.keyColumn = new BatchKeyColumn(encoder);
    this.runAllocator = requireNonNull(runAllocator, "runAllocator is null");
    this.mergeBytes = Math.min(mergeBytes, runAllocator.getLimit());
    this.spillAllocator = requireNonNull(spillAllocator, "spillAllocator is null");
    this.spillFiles = requireNonNull(spillFiles, "spillFiles is null");
  }

  /** Caps how many runs one merge pass reads at once (tests force multi-pass merges with it). */
  ExternalSorter withMaxFanIn(int value) {
    this.maxFanIn = Math.max(2, value);
    return this;
  }

  /**
   * Keeps room for {@code batches} more batches that a reader decodes from {@link
   * #batchAllocator()} ahead of {@link #add}, on a thread of its own: their allocations grow while
   * the sorter decides whether what it holds still fits.
   */
  ExternalSorter withBatchesReadAhead(int batches) {
    this.batchesReadAhead = Math.max(0, batches);
    return this;
  }

  /** The allocator batches passed to {@link #add} must come from. */
  BufferAllocator batchAllocator() {
    return runAllocator;
  }

  /**
   * Takes {@code batch} (of the sorter's schema, from {@link #batchAllocator()}, at most {@link
   * #BATCH_ROWS} rows, its key column not yet filled) and closes it when done with it.
   */
  void add(VectorSchemaRoot batch) throws IOException {
    int rows = batch.getRowCount();
    if (rows == 0 || rows > BATCH_ROWS) {
      batch.close();
      if (rows > BATCH_ROWS) {
        throw new IllegalArgumentException(
            "A sort batch holds at most " + BATCH_ROWS + " rows, not " + rows);
      }
      return;
    }
    VectorSchemaRoot sorted;
    long[] sortedPrefixes;
    try {
      encodeKeys(batch, rows);
      long bytes = RowGather.bufferBytes(batch);
      readAheadBatchBytes = Math.max(readAheadBatchBytes, 2 * RowGather.heldBytes(batch));
      if (!batches.isEmpty()
          && runAllocator.getAllocatedMemory()
                  + 2 * Math.max(bytes, largestBatchBytes)
                  + readAheadRoom()
              > runAllocator.getLimit() * FILL_FRACTION) {
        // the sorted copy below needs room next to the batch: spill what is held first
        spillRun();
      }
      int[] order = rowOrder.order(batchPrefixes, SortKeys.keyVector(batch), rows);
      sorted = sortedCopy(batch, order, rows);
      sortedPrefixes = permuted(order, rows);
    } finally {
      batch.close();
    }
    batches.add(sorted);
    prefixes.add(sortedPrefixes);
    largestBatchBytes = Math.max(largestBatchBytes, RowGather.bufferBytes(sorted));
    if (runAllocator.getAllocatedMemory() + 3 * largestBatchBytes + readAheadRoom()
        > runAllocator.getLimit() * FILL_FRACTION) {
      spillRun();
    }
  }

  /** Room the batches a reader decodes ahead may take while the sorter holds its rows. */
  private long readAheadRoom() {
    return batchesReadAhead * Math.max(readAheadBatchBytes, largestBatchBytes);
  }

  /**
   * A copy of {@code batch} with its rows in {@code order}, made while the batch is still in the
   * processor's cache: later merges then read every batch front to back.
   */
  private VectorSchemaRoot sortedCopy(VectorSchemaRoot batch, int[] order, int rows) {
    VectorSchemaRoot copy = VectorSchemaRoot.create(schema, runAllocator);
    try {
      for (int column = 0; column < schema.getFields().size(); column++) {
        ColumnGather.allocateFor(copy.getVector(column), batch.getVector(column), rows);
      }
      // every pick from the one batch: the order itself is the picked rows
      SourceColumns source = SourceColumns.of(batch);
      Arrays.fill(sameSource, 0, rows, source);
      ColumnGather.copyColumns(
          copy.getFieldVectors(),
          0,
          new GatherPicks(sameSource, order, rows, valueAddresses, valueLengths),
          source.columnsWithNulls());
      Arrays.fill(sameSource, 0, rows, null);
      copy.setRowCount(rows);
      return copy;
    } catch (RuntimeException e) {
      copy.close();
      throw e;
    }
  }

  /**
   * The batch's prefixes in {@code order}, in an array reused from released batches when there is
   * one.
   */
  private long[] permuted(int[] order, int rows) {
    long[] result =
        freePrefixArrays.isEmpty() ? new long[batchPrefixes.length] : freePrefixArrays.pop();
    for (int index = 0; index < rows; index++) {
      System.arraycopy(
          batchPrefixes,
          order[index] * SortKeys.PREFIX_SLOTS,
          result,
          index * SortKeys.PREFIX_SLOTS,
          SortKeys.PREFIX_SLOTS);
    }
    return result;
  }

  /** Emits every row added, in key order, to {@code sink}. */
  void finish(RowSink sink) throws IOException {
    if (runs.isEmpty() && runAllocator.getAllocatedMemory() > mergeBytes * FILL_FRACTION) {
      // the rows held would leave the output too little: spilled, they are read back a batch at a
      // time
      spillRun();
    }
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

  /** Fills the batch's key column and {@link #batchPrefixes}. */
  private void encodeKeys(VectorSchemaRoot batch, int rows) {
    keyColumn.fill(
        batch,
        rows,
        SortKeys.keyVector(batch),
        (row, key) -> SortKeys.prefix(key, batchPrefixes, row * SortKeys.PREFIX_SLOTS));
  }

  private void spillRun() throws IOException {
    Path file = spillFiles.newRunFile();
    try (RunWriter writer = new RunWriter(file, spillSchema, spillAllocator)) {
      emitSorted(writer);
      writer.finish();
      largestRunBatchBytes = Math.max(largestRunBatchBytes, writer.largestBatchBytes());
    }
    spillFiles.finished(file);
    runs.add(file);
    releaseBatches();
  }

  /** Emits the rows of the in-memory batches, each already in key order, merged in key order. */
  private void emitSorted(RowSink sink) throws IOException {
    VarBinaryVector[] keys =
        batches.stream().map(SortKeys::keyVector).toArray(VarBinaryVector[]::new);
    long[][] prefix = prefixes.toArray(long[][]::new);
    SourceColumns[] held = batches.stream().map(SourceColumns::of).toArray(SourceColumns[]::new);
    int[] rowCounts = batches.stream().mapToInt(VectorSchemaRoot::getRowCount).toArray();
    SortedBatchMerge.merge(
        rowCounts,
        prefix,
        (leftBatch, leftRow, rightBatch, rightRow) ->
            SortKeys.compare(keys[leftBatch], leftRow, keys[rightBatch], rightRow),
        (batch, row) -> sink.append(held[batch], row));
    sink.sourcesChanging();
  }

  private void mergeRuns(RowSink sink) throws IOException {
    int fanIn = fanIn();
    while (runs.size() > fanIn) {
      // merge just enough runs that the rest fit one final merge: less data goes through disk twice
      int count = Math.min(fanIn, runs.size() - fanIn + 1);
      List<Path> inputs = new ArrayList<>(runs.subList(0, count));
      Path merged = spillFiles.newRunFile();
      try (RunWriter writer = new RunWriter(merged, spillSchema, spillAllocator)) {
        RunMerger.merge(inputs, spillSchema, runAllocator, encoder, writer);
        writer.finish();
        largestRunBatchBytes = Math.max(largestRunBatchBytes, writer.largestBatchBytes());
      }
      spillFiles.finished(merged);
      for (Path input : inputs) {
        spillFiles.delete(input);
      }
      runs.subList(0, count).clear();
      runs.add(merged);
    }
    RunMerger.merge(runs, spillSchema, runAllocator, encoder, sink);
    for (Path run : runs) {
      spillFiles.delete(run);
    }
    runs.clear();
  }

  /**
   * How many run readers fit the merge's part of the run allocator with room to spare: each holds
   * one batch, and briefly a second while it loads the next ({@link #READER_HEADROOM} batches
   * each). Each also holds its batch's stored bytes in a heap array, outside the budget.
   */
  private int fanIn() {
    long perReader = Math.max(1, (long) (READER_HEADROOM * largestRunBatchBytes));
    long fitting = (long) (mergeBytes * FILL_FRACTION) / perReader;
    return (int) Math.max(2, Math.min(maxFanIn, fitting));
  }

  private void releaseBatches() {
    try {
      AutoCloseables.close(batches);
    } catch (Exception e) {
      throw new IllegalStateException("Cannot release sort batches", e);
    } finally {
      batches.clear();
      freePrefixArrays.addAll(prefixes);
      prefixes.clear();
    }
  }

  @Override
  public void close() {
    releaseBatches();
  }
}
