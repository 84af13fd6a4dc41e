package dev.lakeops.io;

import org.apache.iceberg.io.InputFile;

/**
 * An input file whose bytes were fetched ahead and are held for the reader. A reader that is done
 * with it calls {@link #release()} so the memory or disk it holds goes to the next inputs; reading
 * it again afterwards goes to the object store.
 */
public interface ReleasableInputFile extends InputFile {
  void release();
}
