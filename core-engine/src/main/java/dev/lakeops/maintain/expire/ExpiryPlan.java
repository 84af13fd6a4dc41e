package dev.lakeops.maintain.expire;

import static java.util.Objects.requireNonNull;

import java.util.List;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.TableMetadata;

/**
 * The snapshots an expiry removes and keeps, as computed against {@code base}.
 *
 * @param base the metadata the plan was made from
 * @param expired snapshots to remove
 * @param retained snapshots to keep
 * @param removedRefs refs that outlived their {@code max-ref-age-ms}
 */
public record ExpiryPlan(
    TableMetadata base, List<Snapshot> expired, List<Snapshot> retained, List<String> removedRefs) {
  public ExpiryPlan {
    requireNonNull(base, "base is null");
    expired = List.copyOf(requireNonNull(expired, "expired is null"));
    retained = List.copyOf(requireNonNull(retained, "retained is null"));
    removedRefs = List.copyOf(requireNonNull(removedRefs, "removedRefs is null"));
  }

  public boolean isEmpty() {
    return expired.isEmpty() && removedRefs.isEmpty();
  }
}
