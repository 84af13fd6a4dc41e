package dev.lakeops.trino;

import static java.util.Objects.requireNonNull;

import com.google.inject.Injector;
import dev.lakeops.trino.connector.IcebergCatalogProperties;
import dev.lakeops.trino.connector.IcebergTables;
import io.airlift.bootstrap.Bootstrap;
import io.trino.spi.classloader.ThreadContextClassLoader;
import io.trino.spi.connector.Connector;
import io.trino.spi.connector.ConnectorContext;
import io.trino.spi.connector.ConnectorFactory;
import java.util.Map;

/** {@code connector.name=lakeops}. */
public final class LakeOpsConnectorFactory implements ConnectorFactory {
  public static final String NAME = "lakeops";

  @Override
  public String getName() {
    return NAME;
  }

  @Override
  public Connector create(
      String catalogName, Map<String, String> config, ConnectorContext context) {
    requireNonNull(catalogName, "catalogName is null");
    requireNonNull(config, "config is null");
    requireNonNull(context, "context is null");
    try (ThreadContextClassLoader ignored =
        new ThreadContextClassLoader(getClass().getClassLoader())) {
      Bootstrap app =
          new Bootstrap(
              new LakeOpsModule(catalogName, IcebergCatalogProperties.passThrough(config)),
              binder ->
                  binder
                      .bind(io.trino.spi.type.TypeManager.class)
                      .toInstance(context.getTypeManager()));
      Injector injector =
          app.doNotInitializeLogging()
              .setRequiredConfigurationProperties(
                  IcebergCatalogProperties.withoutPassThrough(config))
              .initialize();
      injector.getInstance(IcebergTables.class).connectJdbcCatalogAtStartup();
      return injector.getInstance(LakeOpsConnector.class);
    }
  }
}
