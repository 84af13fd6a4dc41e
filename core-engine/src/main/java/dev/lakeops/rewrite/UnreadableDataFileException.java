package dev.lakeops.rewrite;

import dev.lakeops.catalog.RootCause;

/** A data or delete file of the table could not be read; the table is left unchanged. */
public final class UnreadableDataFileException extends RuntimeException {
  private UnreadableDataFileException(String message, Throwable cause) {
    super(message, cause);
  }

  public static UnreadableDataFileException wrapIfRead(String location, Throwable cause) {
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
