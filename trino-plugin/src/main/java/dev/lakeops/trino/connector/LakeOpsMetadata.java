package dev.lakeops.trino.connector;

import io.trino.spi.connector.ConnectorMetadata;
import io.trino.spi.connector.ConnectorSession;
import java.util.List;

/** The connector has no tables of its own, only the {@code system} schema holding its procedures. */
final class LakeOpsMetadata implements ConnectorMetadata {
  static final String SYSTEM_SCHEMA = "system";

  @Override
  public List<String> listSchemaNames(ConnectorSession session) {
    return List.of(SYSTEM_SCHEMA);
  }
}
