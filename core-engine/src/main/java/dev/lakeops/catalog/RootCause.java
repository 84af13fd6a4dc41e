package dev.lakeops.catalog;

/** The innermost message of an exception chain, for one-line errors. */
public final class RootCause {
  private RootCause() {}

  public static String message(Throwable throwable) {
    Throwable current = throwable;
    while (current.getCause() != null && current.getCause() != current) {
      current = current.getCause();
    }
    String message = current.getMessage();
    return message == null
        ? current.getClass().getSimpleName()
        : message.lines().findFirst().orElse("");
  }
}
