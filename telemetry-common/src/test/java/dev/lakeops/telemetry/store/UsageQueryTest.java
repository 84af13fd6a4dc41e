package dev.lakeops.telemetry.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.lakeops.telemetry.event.ScanVolume;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class UsageQueryTest {
  private static final Instant NOW = Instant.parse("2026-03-01T00:00:00Z");

  @Test
  void halvesWeightEveryHalfLife() {
    UsageQuery query = UsageQuery.asOf(NOW, Duration.ofDays(7));

    assertThat(query.decay(NOW)).isEqualTo(1.0);
    assertThat(query.decay(NOW.minus(Duration.ofDays(7)))).isCloseTo(0.5, within(1e-12));
    assertThat(query.decay(NOW.minus(Duration.ofDays(21)))).isCloseTo(0.125, within(1e-12));
    assertThat(query.decay(NOW.plus(Duration.ofDays(1)))).isEqualTo(1.0);
    assertThat(query.oldest()).isEqualTo(NOW.minus(Duration.ofDays(70)));
  }

  @Test
  void rejectsNonPositiveHalfLife() {
    assertThatThrownBy(() -> UsageQuery.asOf(NOW, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("halfLife must be positive: PT0S");
  }

  @Test
  void weighsScanVolumeLogarithmically() {
    assertThat(ScanVolumeWeight.of(ScanVolume.unknown())).isEqualTo(1.0);
    assertThat(ScanVolumeWeight.of(ScanVolume.ofBytes(1L << 20))).isCloseTo(2.0, within(1e-12));
    assertThat(ScanVolumeWeight.of(ScanVolume.ofBytes(1023L << 20))).isCloseTo(11.0, within(1e-12));
    assertThat(ScanVolumeWeight.of(ScanVolume.ofRows(30_000))).isCloseTo(3.0, within(1e-12));
  }
}
