package dev.lakeops.rewrite.copy;

/**
 * A page whose deleted rows cannot be removed without decoding its values (an encoding other than
 * PLAIN or dictionary encoding, levels not run-length encoded): the group goes to the decoding
 * path.
 */
public final class UnfilterablePageException extends RuntimeException {
  public UnfilterablePageException(String message) {
    super(message);
  }
}
