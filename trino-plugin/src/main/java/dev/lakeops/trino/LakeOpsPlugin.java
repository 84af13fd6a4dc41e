package dev.lakeops.trino;

import com.google.common.collect.ImmutableList;
import dev.lakeops.trino.listener.LakeOpsEventListenerFactory;
import io.trino.spi.Plugin;
import io.trino.spi.connector.ConnectorFactory;
import io.trino.spi.eventlistener.EventListenerFactory;

/**
 * The LakeOps Trino plugin: the {@code lakeops} connector, whose {@code system} schema holds the
 * maintenance procedures, and the {@code lakeops} event listener, which records query telemetry.
 */
public final class LakeOpsPlugin implements Plugin {
  @Override
  public Iterable<ConnectorFactory> getConnectorFactories() {
    return ImmutableList.of(new LakeOpsConnectorFactory());
  }

  @Override
  public Iterable<EventListenerFactory> getEventListenerFactories() {
    return ImmutableList.of(new LakeOpsEventListenerFactory());
  }
}
