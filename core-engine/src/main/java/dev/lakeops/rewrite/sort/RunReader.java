package dev.lakeops.rewrite.sort;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Reads one sorted run back, holding one batch at a time, positioned at its current row, whose key
 * prefix ({@link SortKeys#PREFIX_SLOTS}) it keeps in the merge's shared array of heads, at its
 * ordinal's slots, for the {@link LoserTree}'s comparisons. Runs are spilled without their keys:
 * each batch's keys are encoded again as it is loaded, into a key vector of the reader's own.
 */
final class RunReader implements AutoCloseable {
  private final RunFileReader reader;
  private final VectorSchemaRoot batch;
  private final BufferAllocator allocator;
  private final BatchKeyColumn keyColumn;
  private final VarBinaryVector keys;
  private final long[] heads;
  private final int headOffset;
  private SourceColumns columns;
  private long keyOffsets;
  private long keyData;
  private int row;
  private int rowCount;

  private RunReader(
      int ordinal,
      RunFileReader reader,
      VectorSchemaRoot batch,
      BufferAllocator allocator,
      long[] heads,
      SortKeyEncoder encoder) {
    this.heads = heads;
    this.headOffset = ordinal * SortKeys.PREFIX_SLOTS;
    this.reader = reader;
    this.batch = batch;
    this.allocator = allocator;
    this.keyColumn = new BatchKeyColumn(encoder);
    this.keys = new VarBinaryVector(SortKeys.KEY_COLUMN, allocator);
  }

  /**
   * Opens {@code file}, a run of {@code schema}; returns a reader at the first row, or {@code null}
   * for an empty run. The reader keeps its current key prefix in {@code heads} at {@code ordinal *
   * PREFIX_SLOTS}, encodes the keys of the run's rows with {@code encoder}, the encoder the run was
   * sorted with, and decompresses with {@code decompression}, which the merge's readers share.
   */
  static RunReader open(
      int ordinal,
      Path file,
      Schema schema,
      BufferAllocator allocator,
      RunDecompression decompression,
      long[] heads,
      SortKeyEncoder encoder)
      throws IOException {
    requireNonNull(file, "file is null");
    requireNonNull(heads, "heads is null");
    requireNonNull(encoder, "encoder is null");
    FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
    RunFileReader reader;
    VectorSchemaRoot batch;
    try {
      reader = new RunFileReader(file, channel, schema, decompression);
      batch = VectorSchemaRoot.create(schema, allocator);
    } catch (RuntimeException e) {
      channel.close();
      throw e;
    }
    RunReader run = new RunReader(ordinal, reader, batch, allocator, heads, encoder);
    try {
      if (run.loadBatch()) {
        return run;
      }
      run.close();
      return null;
    } catch (IOException | RuntimeException e) {
      run.close();
      throw e;
    }
  }

  /** The batch held, as gathers read it. */
  SourceColumns columns() {
    return columns;
  }

  int row() {
    return row;
  }

  /** Whether the current row is the last of the batch held, so the next move replaces the batch. */
  boolean atLastRowOfBatch() {
    return row == rowCount - 1;
  }

  /** Moves to the next row; {@code false} at the end of the run. */
  boolean advance() throws IOException {
    row++;
    if (row < rowCount) {
      SortKeys.prefix(keyOffsets, keyData, row, heads, headOffset);
      return true;
    }
    return loadBatch();
  }

  /** Compares the full key of this reader's current row with {@code other}'s. */
  int compareKey(RunReader other) {
    return SortKeys.compare(keys, row, other.keys, other.row);
  }

  private boolean loadBatch() throws IOException {
    while (reader.next(batch, allocator)) {
      if (batch.getRowCount() > 0) {
        rowCount = batch.getRowCount();
        keyColumn.fill(batch, rowCount, keys, (row, key) -> {});
        columns = SourceColumns.of(batch);
        keyOffsets = keys.getOffsetBuffer().memoryAddress();
        keyData = keys.getDataBuffer().memoryAddress();
        row = 0;
        SortKeys.prefix(keyOffsets, keyData, row, heads, headOffset);
        return true;
      }
    }
    return false;
  }

  @Override
  public void close() throws IOException {
    try (VarBinaryVector releasingKeys = keys;
        VectorSchemaRoot releasingBatch = batch) {
      reader.close();
    }
  }
}
