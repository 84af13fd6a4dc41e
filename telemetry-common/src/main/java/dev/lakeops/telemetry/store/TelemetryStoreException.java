package dev.lakeops.telemetry.store;

/** A telemetry store could not be opened, migrated, read or written. */
public final class TelemetryStoreException extends RuntimeException {
  public TelemetryStoreException(String message, Throwable cause) {
    super(message, cause);
  }

  public TelemetryStoreException(String message) {
    super(message);
  }
}
