package dev.lakeops.plan;

import static java.util.Objects.requireNonNull;

import java.io.Serializable;
import java.util.List;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.StructLike;

/**
 * Data files of one partition (of one partition spec) that are rewritten together. Serializable
 * (Iceberg scan tasks and partition data are), so a group can be rewritten as a task elsewhere.
 *
 * @param index position of the group in the plan, used in names and reports
 * @param specId the partition spec the files were written with
 * @param partition the partition tuple, in that spec
 * @param partitionPath the partition in human form, e.g. {@code day=2024-01-01}
 * @param tasks the files with the delete files that apply to them
 */
public record FileGroup(
    int index, int specId, StructLike partition, String partitionPath, List<FileScanTask> tasks)
    implements Serializable {
  public FileGroup {
    requireNonNull(partition, "partition is null");
    requireNonNull(partitionPath, "partitionPath is null");
    tasks = List.copyOf(requireNonNull(tasks, "tasks is null"));
  }

  public int fileCount() {
    return tasks.size();
  }

  public long inputBytes() {
    return tasks.stream().mapToLong(task -> task.file().fileSizeInBytes()).sum();
  }

  public long recordCount() {
    return tasks.stream().mapToLong(task -> task.file().recordCount()).sum();
  }

  public boolean hasDeletes() {
    return tasks.stream().anyMatch(task -> !task.deletes().isEmpty());
  }

  public List<DeleteFile> deleteFiles() {
    return tasks.stream().flatMap(task -> task.deletes().stream()).distinct().toList();
  }
}
