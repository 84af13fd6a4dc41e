package dev.lakeops.rewrite.sort;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

class ZOrderInterleaveTest {
  @Test
  void bytewiseInterleavingGivesTheSameBitsAsTheBitByBitLoop() {
    Random random = new Random(11);
    for (int columns = 1; columns <= 8; columns++) {
      long[] spread = ZOrderKeyEncoder.spreadTable(columns);
      for (int sample = 0; sample < 2_000; sample++) {
        long[] values = new long[columns];
        for (int index = 0; index < columns; index++) {
          values[index] =
              switch (sample % 4) {
                case 0 -> random.nextLong();
                case 1 -> -1L;
                case 2 -> 1L << random.nextInt(64);
                default -> random.nextInt(256);
              };
        }
        KeyBytes bitwise = new KeyBytes();
        KeyBytes bytewise = new KeyBytes();
        ZOrderKeyEncoder.interleaveBitwise(values, bitwise);
        ZOrderKeyEncoder.interleaveBytewise(values, spread, bytewise);

        assertThat(bytewise.copy())
            .as("%d columns", columns)
            .hasSize(8 * columns)
            .isEqualTo(bitwise.copy());
      }
    }
  }
}
