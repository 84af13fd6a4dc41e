package dev.lakeops.commit;

/**
 * A batch could not be committed (retries exhausted or a non-retryable failure). The batch's new
 * files were deleted; the table does not reference them.
 */
public final class RewriteCommitException extends RuntimeException {
  private final int retries;

  public RewriteCommitException(String message, Throwable cause) {
    this(message, cause, 0);
  }

  /** {@code retries}: commit attempts made again after a conflict before giving up. */
  public RewriteCommitException(String message, Throwable cause, int retries) {
    super(message, cause);
    this.retries = retries;
  }

  /** Commit attempts made again after a conflict before giving up. */
  public int retries() {
    return retries;
  }
}
