package dev.lakeops.trino;

import io.trino.spi.connector.ConnectorTransactionHandle;

/** The connector keeps no transactional state: Iceberg commits are atomic on their own. */
public enum LakeOpsTransactionHandle implements ConnectorTransactionHandle {
  INSTANCE
}
