package dev.lakeops.rewrite;

import dev.lakeops.catalog.RootCause;
import org.apache.arrow.memory.OutOfMemoryException;

/** A data or delete file of the table could not be read; the table is left unchanged. */
public final class UnreadableDataFileException extends RuntimeException {
  private UnreadableDataFileException(String message, Throwable cause) {
    super(message, cause);
  }

  /**
   * The failure to throw for {@code cause}, met while reading {@code location}: the memory budget
   * refusing a buffer is not the file's fault and is passed on as it is (the compactor reports it
   * as a budget too small); anything else names the file.
   */
  public static RuntimeException wrapIfRead(String location, Throwable cause) {
    for (Throwable link = cause; link != null; link = link.getCause()) {
      if (link instanceof OutOfMemoryException refused) {
        return refused;
      }
    }
    return new UnreadableDataFileException(
        "Cannot read data file "
            + location
            + " ("
            + RootCause.message(cause)
            + "); the table is unchanged"
            + " — restore the file, or remove it from the table before compacting",
        cause);
  }
}
