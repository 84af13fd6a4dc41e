package dev.lakeops.rewrite;

import static java.util.Objects.requireNonNull;

import dev.lakeops.plan.FileGroup;
import java.util.List;
import org.apache.iceberg.DataFile;

/**
 * The files one group rewrite wrote, not yet committed.
 *
 * @param group the group that was rewritten
 * @param addedFiles the new data files, with full metrics
 * @param copiedBytes input bytes moved without decoding
 * @param decodedBytes input bytes decoded and re-encoded
 */
public record RewrittenGroup(
    FileGroup group, List<DataFile> addedFiles, long copiedBytes, long decodedBytes) {
  public RewrittenGroup {
    requireNonNull(group, "group is null");
    addedFiles = List.copyOf(requireNonNull(addedFiles, "addedFiles is null"));
  }

  public long outputBytes() {
    return addedFiles.stream().mapToLong(DataFile::fileSizeInBytes).sum();
  }

  public long outputRecords() {
    return addedFiles.stream().mapToLong(DataFile::recordCount).sum();
  }
}
