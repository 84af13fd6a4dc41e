package dev.lakeops.spark.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakeops.telemetry.recorder.RecorderOptions;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TelemetrySettingsTest {
  @Test
  void defaultsAreOnWithTheDefaultStore() {
    TelemetrySettings settings =
        TelemetrySettings.parse(Map.of("spark.sql.shuffle.partitions", "2"));

    assertThat(settings.enabled()).isTrue();
    assertThat(settings.store()).isEmpty();
    assertThat(settings.storeConfiguration()).isNull();
    assertThat(settings.recorderOptions()).isEqualTo(RecorderOptions.defaults());
  }

  @Test
  void readsEverySetting() {
    TelemetrySettings settings =
        TelemetrySettings.parse(
            Map.of(
                "spark.lakeops.telemetry.enabled", "FALSE",
                "spark.lakeops.telemetry.store", " jdbc:postgresql://db:5432/lake?user=spark ",
                "spark.lakeops.telemetry.queue-capacity", "500",
                "spark.lakeops.telemetry.maximum-batch-size", "50",
                "spark.lakeops.telemetry.flush-interval", "250ms",
                "spark.lakeops.telemetry.retention", "30d"));

    assertThat(settings.enabled()).isFalse();
    assertThat(settings.store()).contains("jdbc:postgresql://db:5432/lake?user=spark");
    assertThat(settings.recorderOptions())
        .isEqualTo(
            RecorderOptions.defaults()
                .withQueueCapacity(500)
                .withMaximumBatchSize(50)
                .withFlushInterval(Duration.ofMillis(250))
                .withRetention(Optional.of(Duration.ofDays(30))));
  }

  @Test
  void foreverKeepsEventsWithoutRetention() {
    assertThat(
            TelemetrySettings.parse(Map.of(TelemetrySettings.RETENTION, "forever"))
                .recorderOptions()
                .retention())
        .isEmpty();
  }

  @Test
  void badValuesNameTheSettingAndTheFix() {
    assertThatThrownBy(() -> TelemetrySettings.parse(Map.of(TelemetrySettings.ENABLED, "yes")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Invalid spark.lakeops.telemetry.enabled=yes: use true or false");
    assertThatThrownBy(() -> TelemetrySettings.parse(Map.of(TelemetrySettings.QUEUE_CAPACITY, "0")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Invalid spark.lakeops.telemetry.queue-capacity=0: use a positive whole number, e.g. 10000");
    assertThatThrownBy(
            () -> TelemetrySettings.parse(Map.of(TelemetrySettings.FLUSH_INTERVAL, "soon")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Invalid spark.lakeops.telemetry.flush-interval=soon: use a positive duration with a unit, e.g. 500ms, 30s, 90d");
    assertThatThrownBy(
            () ->
                TelemetrySettings.parse(Map.of("spark.lakeops.telemetry.stor", "sqlite:/tmp/t.db")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Unknown setting spark.lakeops.telemetry.stor: valid settings are spark.lakeops.telemetry.enabled,"
                + " spark.lakeops.telemetry.flush-interval, spark.lakeops.telemetry.maximum-batch-size,"
                + " spark.lakeops.telemetry.queue-capacity, spark.lakeops.telemetry.retention,"
                + " spark.lakeops.telemetry.store");
  }
}
