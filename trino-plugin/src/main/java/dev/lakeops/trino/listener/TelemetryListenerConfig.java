package dev.lakeops.trino.listener;

import com.google.common.base.Splitter;
import io.airlift.configuration.Config;
import io.airlift.configuration.ConfigDescription;
import io.airlift.configuration.ConfigSecuritySensitive;
import jakarta.validation.constraints.NotNull;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/** {@code etc/event-listener.properties} with {@code event-listener.name=lakeops}. */
public class TelemetryListenerConfig {
  /** Connectors whose tables are recorded when none are configured. */
  public static final String DEFAULT_CONNECTORS = "iceberg";

  private String store;
  private String connectors = DEFAULT_CONNECTORS;

  public Optional<String> getStore() {
    return Optional.ofNullable(store);
  }

  @Config("lakeops.telemetry.store")
  @ConfigDescription(
      "Telemetry store: sqlite:<path> or jdbc:postgresql://...; default sqlite:~/.lakeops/telemetry.db")
  @ConfigSecuritySensitive
  public TelemetryListenerConfig setStore(String store) {
    this.store = store;
    return this;
  }

  @NotNull
  public String getConnectors() {
    return connectors;
  }

  @Config("lakeops.telemetry.connectors")
  @ConfigDescription("Comma-separated connector names whose tables are recorded")
  public TelemetryListenerConfig setConnectors(String connectors) {
    this.connectors = connectors;
    return this;
  }

  public Set<String> connectorNames() {
    return Splitter.on(',')
        .trimResults()
        .omitEmptyStrings()
        .splitToStream(connectors)
        .map(name -> name.toLowerCase(Locale.ROOT))
        .collect(Collectors.toUnmodifiableSet());
  }
}
