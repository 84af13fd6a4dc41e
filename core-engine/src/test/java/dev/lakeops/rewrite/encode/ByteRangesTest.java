package dev.lakeops.rewrite.encode;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ByteRangesTest {
  @Test
  void agreesWithTheJdkOnRandomRangesSharingPrefixes() {
    Random random = new Random(3);
    byte[] left = new byte[64];
    byte[] right = new byte[64];
    for (int trial = 0; trial < 200_000; trial++) {
      random.nextBytes(left);
      int shared = random.nextInt(40);
      int leftStart = random.nextInt(8);
      int rightStart = random.nextInt(8);
      int leftLength = random.nextInt(40);
      int rightLength = random.nextBoolean() ? leftLength : random.nextInt(40);
      random.nextBytes(right);
      System.arraycopy(
          left, leftStart, right, rightStart, Math.min(shared, Math.min(leftLength, rightLength)));
      int expected =
          Arrays.compareUnsigned(
              left, leftStart, leftStart + leftLength, right, rightStart, rightStart + rightLength);
      int actual =
          ByteRanges.compareUnsigned(left, leftStart, leftLength, right, rightStart, rightLength);
      assertThat(Integer.signum(actual)).isEqualTo(Integer.signum(expected));
      if (leftLength == rightLength) {
        assertThat(ByteRanges.equal(left, leftStart, right, rightStart, leftLength))
            .isEqualTo(expected == 0);
      }
    }
  }
}
