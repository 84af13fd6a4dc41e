package dev.lakeops.rewrite.read;

import java.io.IOException;
import org.apache.arrow.vector.VectorSchemaRoot;

/** The live rows of one data file as Arrow batches, read one batch at a time. */
public interface LiveBatches extends AutoCloseable {
  /** Rows per batch at most. */
  int BATCH_ROWS = 8192;

  /**
   * The next batch of live rows (deletes applied), at least one row and at most {@link
   * #BATCH_ROWS}; the caller owns and closes it. {@code null} at the end of the file. Columns of
   * the batch schema past the write schema's (a sort key, say) are left empty.
   */
  VectorSchemaRoot next() throws IOException;

  /** Rows read from the data file so far, deleted rows included. */
  long rowsRead();

  /** Rows read so far that deletes removed. */
  long rowsDeleted();

  @Override
  void close() throws IOException;
}
