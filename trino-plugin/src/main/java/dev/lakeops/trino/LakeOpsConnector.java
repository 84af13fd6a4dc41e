package dev.lakeops.trino;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSet;
import com.google.inject.Inject;
import dev.lakeops.trino.connector.IcebergTables;
import dev.lakeops.trino.system.RunsSystemTable;
import dev.lakeops.trino.system.TableSystemTables;
import io.airlift.bootstrap.LifeCycleManager;
import io.trino.spi.connector.Connector;
import io.trino.spi.connector.ConnectorMetadata;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.SystemTable;
import io.trino.spi.procedure.Procedure;
import io.trino.spi.transaction.IsolationLevel;
import java.util.Set;

/**
 * The {@code lakeops} connector: maintenance procedures over one Iceberg catalog, and their system
 * tables.
 */
public final class LakeOpsConnector implements Connector {
  private final LifeCycleManager lifeCycleManager;
  private final IcebergTables tables;
  private final Set<Procedure> procedures;
  private final TableSystemTables tableSystemTables;
  private final Set<SystemTable> systemTables;

  @Inject
  public LakeOpsConnector(
      LifeCycleManager lifeCycleManager,
      IcebergTables tables,
      Set<Procedure> procedures,
      TableSystemTables tableSystemTables,
      RunsSystemTable runsTable) {
    this.lifeCycleManager = requireNonNull(lifeCycleManager, "lifeCycleManager is null");
    this.tables = requireNonNull(tables, "tables is null");
    this.procedures = ImmutableSet.copyOf(requireNonNull(procedures, "procedures is null"));
    this.tableSystemTables = requireNonNull(tableSystemTables, "tableSystemTables is null");
    this.systemTables = ImmutableSet.of(requireNonNull(runsTable, "runsTable is null"));
  }

  @Override
  public ConnectorTransactionHandle beginTransaction(
      IsolationLevel isolationLevel, boolean readOnly, boolean autoCommit) {
    return LakeOpsTransactionHandle.INSTANCE;
  }

  @Override
  public ConnectorMetadata getMetadata(
      ConnectorSession session, ConnectorTransactionHandle transactionHandle) {
    return new LakeOpsMetadata(tables, tableSystemTables);
  }

  @Override
  public Set<Procedure> getProcedures() {
    return procedures;
  }

  @Override
  public Set<SystemTable> getSystemTables() {
    return systemTables;
  }

  @Override
  public void shutdown() {
    tables.close();
    lifeCycleManager.stop();
  }
}
