package dev.lakeops.verify;

/**
 * A rewritten file group failed verification: it is not committed and its files are deleted. The
 * message is one line, {@code verification: group 3 (day=2024-01-01) wrote 999 rows, expected 1000
 * (1000 read, 0 deleted)}.
 */
public final class GroupVerificationException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  public GroupVerificationException(String message) {
    super(message);
  }
}
