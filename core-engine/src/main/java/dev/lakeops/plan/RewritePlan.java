package dev.lakeops.plan;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An immutable plan: the snapshot it was planned from, the groups to rewrite, and, for every delete
 * file, the data files it applies to (so the committer can drop deletes that no longer apply).
 *
 * @param startingSnapshotId the snapshot the plan read; commits validate from it
 * @param startingSequenceNumber that snapshot's sequence number
 * @param groups the file groups, in rewrite order
 * @param dataFilesByDeleteFile every delete file in the snapshot mapped to the data file paths it
 *     applies to
 * @param options the parsed options the plan honoured
 */
public record RewritePlan(
    long startingSnapshotId,
    long startingSequenceNumber,
    List<FileGroup> groups,
    Map<String, Set<String>> dataFilesByDeleteFile,
    RewriteOptions options) {
  public RewritePlan {
    groups = List.copyOf(requireNonNull(groups, "groups is null"));
    dataFilesByDeleteFile =
        Map.copyOf(requireNonNull(dataFilesByDeleteFile, "dataFilesByDeleteFile is null"));
    requireNonNull(options, "options is null");
  }

  public int fileCount() {
    return groups.stream().mapToInt(FileGroup::fileCount).sum();
  }

  public long inputBytes() {
    return groups.stream().mapToLong(FileGroup::inputBytes).sum();
  }

  public boolean isEmpty() {
    return groups.isEmpty();
  }
}
