package dev.lakeops.trino.connector;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSet;
import com.google.inject.Inject;
import io.airlift.bootstrap.LifeCycleManager;
import io.trino.spi.connector.Connector;
import io.trino.spi.connector.ConnectorMetadata;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.procedure.Procedure;
import io.trino.spi.transaction.IsolationLevel;
import java.util.Set;

/** The {@code lakeops} connector: maintenance procedures over one Iceberg catalog. */
public final class LakeOpsConnector implements Connector {
  private final LifeCycleManager lifeCycleManager;
  private final IcebergTables tables;
  private final Set<Procedure> procedures;

  @Inject
  public LakeOpsConnector(LifeCycleManager lifeCycleManager, IcebergTables tables, Set<Procedure> procedures) {
    this.lifeCycleManager = requireNonNull(lifeCycleManager, "lifeCycleManager is null");
    this.tables = requireNonNull(tables, "tables is null");
    this.procedures = ImmutableSet.copyOf(requireNonNull(procedures, "procedures is null"));
  }

  @Override
  public ConnectorTransactionHandle beginTransaction(IsolationLevel isolationLevel, boolean readOnly, boolean autoCommit) {
    return LakeOpsTransactionHandle.INSTANCE;
  }

  @Override
  public ConnectorMetadata getMetadata(ConnectorSession session, ConnectorTransactionHandle transactionHandle) {
    return new LakeOpsMetadata();
  }

  @Override
  public Set<Procedure> getProcedures() {
    return procedures;
  }

  @Override
  public void shutdown() {
    tables.close();
    lifeCycleManager.stop();
  }
}
