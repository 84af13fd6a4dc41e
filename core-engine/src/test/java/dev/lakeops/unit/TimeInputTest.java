package dev.lakeops.unit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class TimeInputTest {
  private static final Instant NOW = Instant.parse("2026-12-10T00:00:00Z");

  @Test
  void parsesShortAndIsoDurations() {
    assertThat(TimeInput.parseDuration("3d", "x")).isEqualTo(Duration.ofDays(3));
    assertThat(TimeInput.parseDuration("12h", "x")).isEqualTo(Duration.ofHours(12));
    assertThat(TimeInput.parseDuration("2w", "x")).isEqualTo(Duration.ofDays(14));
    assertThat(TimeInput.parseDuration("PT36H", "x")).isEqualTo(Duration.ofHours(36));
    assertThat(TimeInput.parseDuration("P7D", "x")).isEqualTo(Duration.ofDays(7));
  }

  @Test
  void parsesCutoffsFromDurationsAndTimestamps() {
    assertThat(TimeInput.parseCutoff("1d", NOW, "x"))
        .isEqualTo(Instant.parse("2026-12-09T00:00:00Z"));
    assertThat(TimeInput.parseCutoff("2026-12-01", NOW, "x"))
        .isEqualTo(Instant.parse("2026-12-01T00:00:00Z"));
    assertThat(TimeInput.parseCutoff("2026-12-01T06:00:00", NOW, "x"))
        .isEqualTo(Instant.parse("2026-12-01T06:00:00Z"));
    assertThat(TimeInput.parseCutoff("2026-12-01T06:00:00+01:00", NOW, "x"))
        .isEqualTo(Instant.parse("2026-12-01T05:00:00Z"));
  }

  /** An engine prints a TIMESTAMP as {@code 2026-12-01 06:00:00} in the session's time zone. */
  @Test
  void readsATimestampWithoutOffsetInTheGivenZone() {
    ZoneId amsterdam = ZoneId.of("Europe/Amsterdam");
    assertThat(TimeInput.parseCutoff("2026-12-01 06:00:00", NOW, "x", amsterdam))
        .isEqualTo(Instant.parse("2026-12-01T05:00:00Z"));
    assertThat(TimeInput.parseCutoff("2026-12-01 06:00:00.5", NOW, "x", ZoneOffset.UTC))
        .isEqualTo(Instant.parse("2026-12-01T06:00:00.5Z"));
    assertThat(TimeInput.parseCutoff("2026-12-01T06:00:00Z", NOW, "x", amsterdam))
        .isEqualTo(Instant.parse("2026-12-01T06:00:00Z"));
    assertThat(TimeInput.parseCutoff("7d", NOW, "x", amsterdam))
        .isEqualTo(Instant.parse("2026-12-03T00:00:00Z"));
  }

  @Test
  void formatsWithTheLargestExactUnit() {
    assertThat(TimeInput.format(Duration.ofDays(3))).isEqualTo("3d");
    assertThat(TimeInput.format(Duration.ofHours(36))).isEqualTo("36h");
    assertThat(TimeInput.format(Duration.ofMillis(1500))).isEqualTo("1500ms");
  }

  @Test
  void rejectsGarbage() {
    assertThatThrownBy(() -> TimeInput.parseDuration("three days", "--older-than"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Invalid --older-than 'three days': use a duration such as 3d, 12h, 30m, 2w or PT36H");
    assertThatThrownBy(() -> TimeInput.parseCutoff("2026-13-45", NOW, "--older-than"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Invalid --older-than '2026-13-45': use a timestamp such as 2026-01-31T00:00:00Z or a duration such as 7d");
  }
}
