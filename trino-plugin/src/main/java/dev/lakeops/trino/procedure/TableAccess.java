package dev.lakeops.trino.procedure;

import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.SchemaTableName;
import java.util.Set;

/** The rights a procedure needs on its table, checked through Trino's access control. */
public enum TableAccess {
  /**
   * Reading metadata only ({@code health}): the caller must be allowed to select from the table.
   */
  READ {
    @Override
    void check(ConnectorAccessControl accessControl, SchemaTableName table) {
      accessControl.checkCanSelectFromColumns(null, table, Set.of());
    }
  },
  /**
   * Rewriting or deleting files: the caller must be allowed to insert into and delete from the
   * table.
   */
  WRITE {
    @Override
    void check(ConnectorAccessControl accessControl, SchemaTableName table) {
      accessControl.checkCanInsertIntoTable(null, table);
      accessControl.checkCanDeleteFromTable(null, table);
    }
  };

  abstract void check(ConnectorAccessControl accessControl, SchemaTableName table);
}
