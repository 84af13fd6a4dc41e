package dev.lakeops.rewrite.sort;

import java.io.IOException;
import org.apache.arrow.vector.VectorSchemaRoot;

/** Takes rows in sorted order, one at a time, copying them out of the batch that holds them. */
interface RowSink {
  /** Copies row {@code row} of {@code source}, whose schema carries the key column last. */
  void append(VectorSchemaRoot source, int row) throws IOException;
}
