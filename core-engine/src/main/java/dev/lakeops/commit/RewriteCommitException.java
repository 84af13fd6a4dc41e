package dev.lakeops.commit;

/**
 * A batch could not be committed (retries exhausted or a non-retryable failure). The batch's new
 * files were deleted; the table does not reference them.
 */
public final class RewriteCommitException extends RuntimeException {
  public RewriteCommitException(String message, Throwable cause) {
    super(message, cause);
  }
}
