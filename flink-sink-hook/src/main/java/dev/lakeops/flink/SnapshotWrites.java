package dev.lakeops.flink;

import static java.util.Objects.requireNonNull;

import java.util.Set;

/**
 * What one writer commit (snapshot) added, read once from the manifests it wrote.
 *
 * @param snapshotId the snapshot
 * @param timestampMillis when it was committed
 * @param dataFiles data files it added
 * @param dataBytes their size
 * @param records rows they hold
 * @param smallFiles added data files under the small-file threshold
 * @param smallBytes their size
 * @param deleteFiles position, equality and deletion-vector files it added
 * @param partitions partitions its files landed in
 */
record SnapshotWrites(
    long snapshotId,
    long timestampMillis,
    int dataFiles,
    long dataBytes,
    long records,
    int smallFiles,
    long smallBytes,
    int deleteFiles,
    Set<PartitionValues> partitions) {
  SnapshotWrites {
    partitions = Set.copyOf(requireNonNull(partitions, "partitions is null"));
  }
}
