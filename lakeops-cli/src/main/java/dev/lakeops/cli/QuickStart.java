package dev.lakeops.cli;

import static java.util.Objects.requireNonNull;

import dev.lakeops.unit.ByteSize;
import java.util.OptionalLong;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.Table;

/**
 * Whether a command started in the launcher's quick-start JVM (C1 compiler only, serial GC: see
 * docs/jvm.md, "Start-up") should run there, or end at once and let {@code bin/lakeops} start it
 * again with the JIT of large rewrites. Small tables finish before C2 pays for its compile time;
 * large ones need its code for their page and encoding loops.
 *
 * <p>The decision uses the table's size from its current snapshot's summary ({@code
 * total-files-size}), which costs nothing to read; a table whose summary lacks it counts as large.
 */
final class QuickStart {
  /** The system property the launcher sets on a quick-start JVM. */
  static final String PROPERTY = "lakeops.quick-start";

  /** Exit code that asks the launcher to run the command again with the full JIT. */
  static final int RESTART_WITH_FULL_JIT = 75;

  /**
   * Largest table a quick-start JVM compacts itself. A 46 MB, 500-file binpack needs about half the
   * CPU there; at 217 MB a binpack and a sort still needed less than with the full JIT
   * (docs/benchmarks/small-job-startup.md).
   */
  static final ByteSize LARGEST_TABLE = ByteSize.ofMegabytes(256);

  private final boolean active;
  private final ByteSize largestTable;

  QuickStart(boolean active, ByteSize largestTable) {
    this.active = active;
    this.largestTable = requireNonNull(largestTable, "largestTable is null");
  }

  /** System property that changes {@link #LARGEST_TABLE}, e.g. {@code 1GB}. */
  static final String LARGEST_TABLE_PROPERTY = "lakeops.quick-start.largest-table";

  /** The policy of this JVM: active when the launcher started it in quick-start mode. */
  static QuickStart ofThisJvm() {
    String largest = System.getProperty(LARGEST_TABLE_PROPERTY);
    return new QuickStart(
        Boolean.getBoolean(PROPERTY), largest == null ? LARGEST_TABLE : ByteSize.parse(largest));
  }

  /** Whether this JVM should leave compacting {@code table} to one with the full JIT. */
  boolean restartForFullJit(Table table) {
    requireNonNull(table, "table is null");
    if (!active) {
      return false;
    }
    OptionalLong bytes = tableBytes(table.currentSnapshot());
    return bytes.isEmpty() || bytes.getAsLong() > largestTable.bytes();
  }

  private static OptionalLong tableBytes(Snapshot snapshot) {
    if (snapshot == null) {
      return OptionalLong.of(0);
    }
    String total = snapshot.summary().get(SnapshotSummary.TOTAL_FILE_SIZE_PROP);
    if (total == null) {
      return OptionalLong.empty();
    }
    try {
      return OptionalLong.of(Long.parseLong(total));
    } catch (NumberFormatException e) {
      return OptionalLong.empty();
    }
  }
}
