package dev.lakeops.rewrite.sort;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileReader;

/**
 * Reads one sorted run back, holding one batch at a time, positioned at its current row, whose key
 * prefix ({@link SortKeys#PREFIX_SLOTS}) it keeps at hand for the merge's comparisons.
 */
final class RunReader implements AutoCloseable {
  private final int ordinal;
  private final ArrowFileReader reader;
  private final VectorSchemaRoot batch;
  private final int keyColumn;
  private final long[] prefix = new long[SortKeys.PREFIX_SLOTS];
  private VarBinaryVector keys;
  private SourceColumns columns;
  private long keyOffsets;
  private long keyData;
  private int row;
  private int rowCount;

  private RunReader(int ordinal, ArrowFileReader reader) throws IOException {
    this.ordinal = ordinal;
    this.reader = reader;
    this.batch = reader.getVectorSchemaRoot();
    this.keyColumn = batch.getFieldVectors().size() - 1;
  }

  /** Opens {@code file}; returns a reader at the first row, or {@code null} for an empty run. */
  static RunReader open(int ordinal, Path file, BufferAllocator allocator) throws IOException {
    requireNonNull(file, "file is null");
    FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
    ArrowFileReader reader;
    try {
      reader = new ArrowFileReader(channel, allocator);
    } catch (RuntimeException e) {
      channel.close();
      throw e;
    }
    try {
      RunReader run = new RunReader(ordinal, reader);
      if (run.loadBatch()) {
        return run;
      }
      run.close();
      return null;
    } catch (IOException | RuntimeException e) {
      reader.close();
      throw e;
    }
  }

  int ordinal() {
    return ordinal;
  }

  /** The batch held, as gathers read it. */
  SourceColumns columns() {
    return columns;
  }

  int row() {
    return row;
  }

  VarBinaryVector keys() {
    return keys;
  }

  /** Whether the current row is the last of the batch held, so the next move replaces the batch. */
  boolean atLastRowOfBatch() {
    return row == rowCount - 1;
  }

  /** Moves to the next row; {@code false} at the end of the run. */
  boolean advance() throws IOException {
    row++;
    if (row < rowCount) {
      SortKeys.prefix(keyOffsets, keyData, row, prefix, 0);
      return true;
    }
    return loadBatch();
  }

  /** Orders readers by their current rows' keys, then by run (so merging is stable). */
  static int compare(RunReader left, RunReader right) {
    int byKey = SortKeys.comparePrefixes(left.prefix, 0, right.prefix, 0);
    if (byKey == SortKeys.UNDECIDED) {
      byKey = SortKeys.compare(left.keys, left.row, right.keys, right.row);
    }
    return byKey != 0 ? byKey : Integer.compare(left.ordinal, right.ordinal);
  }

  private boolean loadBatch() throws IOException {
    while (reader.loadNextBatch()) {
      if (batch.getRowCount() > 0) {
        keys = SortKeys.keyVector(batch);
        columns = SourceColumns.of(batch);
        keyOffsets = columns.offsetAddress(keyColumn);
        keyData = columns.dataAddress(keyColumn);
        row = 0;
        rowCount = batch.getRowCount();
        SortKeys.prefix(keys, row, prefix);
        return true;
      }
    }
    return false;
  }

  @Override
  public void close() throws IOException {
    reader.close();
  }
}
