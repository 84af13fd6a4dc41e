package dev.lakeops.plan;

import static java.util.Objects.requireNonNull;

import java.io.Serializable;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.types.Type;

/**
 * Data files of one partition (of one partition spec) that are rewritten together. Serializable
 * (Iceberg scan tasks and partition data are), so a group can be rewritten as a task elsewhere.
 *
 * @param index position of the group in the plan, used in names and reports
 * @param specId the partition spec the files were written with
 * @param partition the partition tuple, in that spec
 * @param partitionPath the partition in human form, e.g. {@code day=2024-01-01}
 * @param tasks the files with the delete files that apply to them
 * @param columnSummaries per column id, what the files' statistics say about that column in this
 *     group, for the columns the planner summarized (the planned files themselves carry none)
 */
public record FileGroup(
    int index,
    int specId,
    StructLike partition,
    String partitionPath,
    List<FileScanTask> tasks,
    Map<Integer, ColumnSummary> columnSummaries)
    implements Serializable {
  public FileGroup {
    requireNonNull(partition, "partition is null");
    requireNonNull(partitionPath, "partitionPath is null");
    tasks = List.copyOf(requireNonNull(tasks, "tasks is null"));
    columnSummaries = Map.copyOf(requireNonNull(columnSummaries, "columnSummaries is null"));
  }

  /** A group without column summaries: they are read from its files' statistics when asked. */
  public FileGroup(
      int index, int specId, StructLike partition, String partitionPath, List<FileScanTask> tasks) {
    this(index, specId, partition, partitionPath, tasks, Map.of());
  }

  /** This group with {@code summaries} as its column summaries. */
  public FileGroup withColumnSummaries(Map<Integer, ColumnSummary> summaries) {
    return new FileGroup(index, specId, partition, partitionPath, tasks, summaries);
  }

  /**
   * The summary of column {@code fieldId} of type {@code type}: the planner's, or, for a column it
   * did not summarize, folded from the statistics the group's files carry (none when planned).
   */
  public ColumnSummary columnSummary(int fieldId, Type type) {
    ColumnSummary summary = columnSummaries.get(fieldId);
    return summary != null ? summary : ColumnSummary.of(fieldId, type, tasks);
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
