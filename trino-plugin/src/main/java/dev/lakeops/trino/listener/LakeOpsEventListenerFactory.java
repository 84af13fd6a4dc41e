package dev.lakeops.trino.listener;

import static io.airlift.configuration.ConfigBinder.configBinder;

import com.google.inject.Injector;
import dev.lakeops.telemetry.recorder.TelemetryRecorder;
import io.airlift.bootstrap.Bootstrap;
import io.trino.spi.classloader.ThreadContextClassLoader;
import io.trino.spi.eventlistener.EventListener;
import io.trino.spi.eventlistener.EventListenerFactory;
import java.util.Map;

/** {@code event-listener.name=lakeops}. */
public final class LakeOpsEventListenerFactory implements EventListenerFactory {
  public static final String NAME = "lakeops";

  @Override
  public String getName() {
    return NAME;
  }

  @Override
  public EventListener create(Map<String, String> config, EventListenerContext context) {
    try (ThreadContextClassLoader ignored =
        new ThreadContextClassLoader(getClass().getClassLoader())) {
      Injector injector =
          new Bootstrap(binder -> configBinder(binder).bindConfig(TelemetryListenerConfig.class))
              .doNotInitializeLogging()
              .setRequiredConfigurationProperties(config)
              .initialize();
      TelemetryListenerConfig listenerConfig = injector.getInstance(TelemetryListenerConfig.class);
      TelemetryRecorder recorder = TelemetryRecorder.open(listenerConfig.getStore().orElse(null));
      return new LakeOpsEventListener(
          recorder, new QueryTelemetryExtractor(listenerConfig.connectorNames()));
    }
  }
}
