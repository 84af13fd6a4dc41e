package dev.lakeops.flink;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The cheap signals the hook reads after a checkpoint: what writers added since the table's last
 * compaction (the newest {@code replace} snapshot, whichever engine committed it).
 *
 * @param commits writer commits since the last compaction, newest first
 * @param targetFileSizeBytes the table's target file size
 * @param smallFileThresholdBytes the size under which a data file counts as small
 */
record WriteSignals(
    List<SnapshotWrites> commits, long targetFileSizeBytes, long smallFileThresholdBytes) {
  WriteSignals {
    commits = List.copyOf(requireNonNull(commits, "commits is null"));
  }

  int newDataFiles() {
    return commits.stream().mapToInt(SnapshotWrites::dataFiles).sum();
  }

  int newSmallFiles() {
    return commits.stream().mapToInt(SnapshotWrites::smallFiles).sum();
  }

  long newSmallBytes() {
    return commits.stream().mapToLong(SnapshotWrites::smallBytes).sum();
  }

  int newDeleteFiles() {
    return commits.stream().mapToInt(SnapshotWrites::deleteFiles).sum();
  }

  Set<PartitionValues> affectedPartitions() {
    return commits.stream()
        .flatMap(commit -> commit.partitions().stream())
        .collect(Collectors.toUnmodifiableSet());
  }
}
