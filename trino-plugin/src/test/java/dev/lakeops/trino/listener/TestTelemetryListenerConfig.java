package dev.lakeops.trino.listener;

import static io.airlift.configuration.testing.ConfigAssertions.assertFullMapping;
import static io.airlift.configuration.testing.ConfigAssertions.assertRecordedDefaults;
import static io.airlift.configuration.testing.ConfigAssertions.recordDefaults;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class TestTelemetryListenerConfig {
  @Test
  void defaults() {
    assertRecordedDefaults(
        recordDefaults(TelemetryListenerConfig.class).setStore(null).setConnectors("iceberg"));
  }

  @Test
  void explicitPropertyMappings() {
    assertFullMapping(
        Map.of(
            "lakeops.telemetry.store",
            "jdbc:postgresql://127.0.0.1:5432/test",
            "lakeops.telemetry.connectors",
            "iceberg, delta_lake"),
        new TelemetryListenerConfig()
            .setStore("jdbc:postgresql://127.0.0.1:5432/test")
            .setConnectors("iceberg, delta_lake"));
  }

  @Test
  void connectorNamesAreTrimmedAndLowerCase() {
    assertThat(
            new TelemetryListenerConfig().setConnectors(" Iceberg ,delta_lake,").connectorNames())
        .containsExactlyInAnyOrder("iceberg", "delta_lake");
  }
}
