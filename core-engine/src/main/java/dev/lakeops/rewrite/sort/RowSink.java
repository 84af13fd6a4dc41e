package dev.lakeops.rewrite.sort;

import java.io.IOException;

/**
 * Takes rows in sorted order, one at a time. A sink may keep a reference to the row and copy it out
 * later, in bulk: until {@link #sourcesChanging()} is called, the caller leaves every batch it has
 * passed in unchanged.
 */
@FunctionalInterface
interface RowSink {
  /** Takes row {@code row} of {@code source}, whose schema carries the key column last. */
  void append(SourceColumns source, int row) throws IOException;

  /** The batches passed in so far are about to be reused or released: copy out what is pending. */
  default void sourcesChanging() throws IOException {}
}
