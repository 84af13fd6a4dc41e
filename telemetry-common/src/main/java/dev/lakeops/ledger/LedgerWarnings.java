package dev.lakeops.ledger;

import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Where the ledger reports store errors it does not throw (a run must not fail because its row
 * could not be written). Standard error by default; hosts with a logger may redirect it.
 */
public final class LedgerWarnings {
  private static final AtomicReference<PrintStream> TARGET = new AtomicReference<>();

  private LedgerWarnings() {}

  /** Sends warnings to {@code stream}; null means standard error. */
  public static void redirectTo(PrintStream stream) {
    TARGET.set(stream);
  }

  /** Reports {@code message} as one warning line. */
  public static void warn(String message) {
    PrintStream stream = TARGET.get();
    (stream == null ? System.err : stream).println("lakeops: warning: " + message);
  }

  /** The first line of the throwable's message, or its class name when it has none. */
  public static String oneLine(Throwable throwable) {
    Throwable cause = throwable;
    while ((cause.getMessage() == null || cause.getMessage().isBlank())
        && cause.getCause() != null) {
      cause = cause.getCause();
    }
    String message = cause.getMessage();
    if (message == null || message.isBlank()) {
      return cause.getClass().getSimpleName();
    }
    return message.lines().findFirst().orElse(message);
  }
}
