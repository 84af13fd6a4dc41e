package dev.lakeops.observe;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/** What the table page needs beyond health samples and runs: files and policy, read on demand. */
public interface TableInspector {
  /**
   * Sizes of the live data files of {@code table} at {@code snapshotId} (the current snapshot when
   * empty); empty when the table or the snapshot is gone.
   */
  Optional<long[]> dataFileSizes(String table, OptionalLong snapshotId);

  /** The table's target data file size in bytes, when the table exists. */
  OptionalLong targetFileSizeBytes(String table);

  /** The table's effective maintenance policy with the source of each value. */
  List<PolicyValue> effectivePolicy(String table);

  /** Knows no table: for a server without a catalog. */
  static TableInspector none() {
    return new TableInspector() {
      @Override
      public Optional<long[]> dataFileSizes(String table, OptionalLong snapshotId) {
        return Optional.empty();
      }

      @Override
      public OptionalLong targetFileSizeBytes(String table) {
        return OptionalLong.empty();
      }

      @Override
      public List<PolicyValue> effectivePolicy(String table) {
        return List.of();
      }
    };
  }
}
