package dev.lakeops.maintain.manifest;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.OptionalLong;
import org.apache.iceberg.ManifestFile;

/**
 * The manifests of one snapshot that a rewrite would pack.
 *
 * @param snapshotId the snapshot planned from, empty for a table without snapshots
 * @param manifestsBefore all manifests of that snapshot
 * @param eligible the data manifests to rewrite
 */
record ManifestRewritePlan(
    OptionalLong snapshotId, int manifestsBefore, List<ManifestFile> eligible) {
  ManifestRewritePlan {
    requireNonNull(snapshotId, "snapshotId is null");
    eligible = List.copyOf(requireNonNull(eligible, "eligible is null"));
  }

  /** One manifest or none: packing cannot reduce the count. */
  boolean isEmpty() {
    return eligible.size() < 2;
  }
}
