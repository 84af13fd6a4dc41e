package dev.lakeops.io;

import org.apache.iceberg.io.SeekableInputStream;

/** The whole bytes of one object, fetched ahead: in memory or in a local file. */
interface FetchedObject {
  long length();

  /** A new stream over the bytes, at position 0. */
  SeekableInputStream newStream();

  boolean isReleased();

  /** Gives the bytes back (memory to the budget, the local file to the disk); safe to repeat. */
  void release();
}
