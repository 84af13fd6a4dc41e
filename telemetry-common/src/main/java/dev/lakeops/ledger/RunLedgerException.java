package dev.lakeops.ledger;

/** The run ledger's store could not be opened, read or written. */
public final class RunLedgerException extends RuntimeException {
  public RunLedgerException(String message, Throwable cause) {
    super(message, cause);
  }
}
