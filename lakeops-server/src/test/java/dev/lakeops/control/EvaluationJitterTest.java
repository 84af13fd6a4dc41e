package dev.lakeops.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Next looks are spread over the last fifth of their interval, never later than it. */
class EvaluationJitterTest {
  @Test
  void delaysAreShortenedByUpToAFifthAndSpreadOut() {
    EvaluationJitter jitter = new EvaluationJitter(new SplittableRandom(42));
    Duration delay = Duration.ofMinutes(15);
    Set<Long> seconds = new HashSet<>();
    for (int index = 0; index < 1000; index++) {
      Duration spread = jitter.spread(delay);
      assertThat(spread).isBetween(Duration.ofMinutes(12), delay);
      seconds.add(spread.toSeconds());
    }
    // 1,000 tables due together at start come due again over some 180 different seconds
    assertThat(seconds.size()).isGreaterThan(150);
    assertThat(jitter.spread(Duration.ZERO)).isEqualTo(Duration.ZERO);
  }
}
