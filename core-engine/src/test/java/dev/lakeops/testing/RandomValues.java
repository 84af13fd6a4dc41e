package dev.lakeops.testing;

import java.util.Random;

/** Random test values: a tenth of them null, and random bytes. */
public final class RandomValues {
  private RandomValues() {}

  /** {@code value}, or null one time in ten. */
  public static <T> T nullOr(Random random, T value) {
    return random.nextInt(10) == 0 ? null : value;
  }

  public static byte[] bytes(Random random, int length) {
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    return bytes;
  }
}
