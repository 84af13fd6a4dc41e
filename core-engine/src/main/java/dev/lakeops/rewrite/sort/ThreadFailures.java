package dev.lakeops.rewrite.sort;

import java.io.IOException;
import java.io.UncheckedIOException;

/** Rethrows, on the thread that waits for it, what a sort's helper thread failed with. */
final class ThreadFailures {
  private ThreadFailures() {}

  /**
   * Throws {@code failure} as it was thrown where it can be (I/O and unchecked exceptions, errors),
   * else wrapped in an {@link IOException}.
   */
  static void rethrow(Throwable failure) throws IOException {
    if (failure instanceof IOException io) {
      throw io;
    }
    if (failure instanceof UncheckedIOException unchecked) {
      throw unchecked;
    }
    if (failure instanceof RuntimeException runtime) {
      throw runtime;
    }
    if (failure instanceof Error error) {
      throw error;
    }
    throw new IOException(failure);
  }
}
