package dev.lakeops.commit;

import dev.lakeops.testing.ForwardingTableOperations;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;

/**
 * A hand-written fake around a real table's operations: runs {@code beforeCommit} before each
 * commit and {@code afterCommit} after each successful one; either may throw to simulate a failure.
 */
final class TableOperationsWrapper extends ForwardingTableOperations {
  interface Hook {
    void run(int commitNumber);
  }

  private final Hook beforeCommit;
  private final Hook afterCommit;
  private final AtomicInteger commits = new AtomicInteger();

  TableOperationsWrapper(TableOperations delegate, Hook beforeCommit, Hook afterCommit) {
    super(delegate);
    this.beforeCommit = beforeCommit;
    this.afterCommit = afterCommit;
  }

  static Table wrap(Table table, Hook beforeCommit, Hook afterCommit) {
    TableOperations operations = ((HasTableOperations) table).operations();
    return new BaseTable(
        new TableOperationsWrapper(operations, beforeCommit, afterCommit), table.name());
  }

  @Override
  public void commit(TableMetadata base, TableMetadata metadata) {
    if (!changesTheCurrentSnapshot(base, metadata)) {
      // property-only commits, such as the compaction lock's lease, pass through unhooked
      delegate().commit(base, metadata);
      return;
    }
    int number = commits.incrementAndGet();
    beforeCommit.run(number);
    delegate().commit(base, metadata);
    afterCommit.run(number);
  }

  private static boolean changesTheCurrentSnapshot(TableMetadata base, TableMetadata metadata) {
    if (base == null) {
      return true;
    }
    return base.currentSnapshot() == null
        ? metadata.currentSnapshot() != null
        : metadata.currentSnapshot() == null
            || base.currentSnapshot().snapshotId() != metadata.currentSnapshot().snapshotId();
  }
}
