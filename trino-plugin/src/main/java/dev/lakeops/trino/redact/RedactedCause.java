package dev.lakeops.trino.redact;

/**
 * One link of a redacted cause chain: the original exception's class name, its message with secrets
 * masked, and its stack trace, so that the chain Trino sends to the client still says what failed
 * where.
 */
final class RedactedCause extends RuntimeException {
  private final String originalClassName;

  RedactedCause(String originalClassName, String redactedMessage, Throwable cause) {
    super(redactedMessage, cause);
    this.originalClassName = originalClassName;
  }

  @Override
  public String toString() {
    String message = getMessage();
    return message == null ? originalClassName : originalClassName + ": " + message;
  }
}
