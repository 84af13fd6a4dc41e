package dev.lakeops.plan;

import dev.lakeops.io.ManifestReads;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;

/**
 * Gives planned groups their {@link ColumnSummary column summaries}: one more scan of the planned
 * snapshot, this time with the statistics of just the wanted columns, streams every data file's
 * metrics into the summary of the group the file belongs to and drops them. Memory is one summary
 * per group and column plus a path-to-group index, never every file's statistics.
 */
final class GroupSummarizer {
  private GroupSummarizer() {}

  static List<FileGroup> summarize(
      Table table, Snapshot snapshot, List<FileGroup> groups, Set<Integer> fieldIds) {
    if (groups.isEmpty() || fieldIds.isEmpty()) {
      return groups;
    }
    Schema schema = table.schemas().getOrDefault(snapshot.schemaId(), table.schema());
    Map<Integer, Types.NestedField> columns = new LinkedHashMap<>();
    List<String> names = new ArrayList<>();
    for (int fieldId : fieldIds) {
      Types.NestedField field = schema.findField(fieldId);
      if (field != null && field.type().isPrimitiveType()) {
        columns.put(fieldId, field);
        names.add(schema.findColumnName(fieldId));
      }
    }
    if (columns.isEmpty()) {
      return groups;
    }
    Map<String, Integer> groupByPath = new HashMap<>();
    List<Map<Integer, ColumnSummary.Folder>> folders = new ArrayList<>();
    for (int position = 0; position < groups.size(); position++) {
      for (FileScanTask task : groups.get(position).tasks()) {
        groupByPath.put(task.file().location(), position);
      }
      Map<Integer, ColumnSummary.Folder> groupFolders = new LinkedHashMap<>();
      columns.forEach(
          (fieldId, field) ->
              groupFolders.put(fieldId, new ColumnSummary.Folder(fieldId, field.type())));
      folders.add(groupFolders);
    }
    try (CloseableIterable<FileScanTask> tasks =
        ManifestReads.planned(
                table
                    .newScan()
                    .useSnapshot(snapshot.snapshotId())
                    .ignoreResiduals()
                    .includeColumnStats(names),
                table)
            .planFiles()) {
      for (FileScanTask task : tasks) {
        Integer position = groupByPath.get(task.file().location());
        if (position != null) {
          folders.get(position).values().forEach(folder -> folder.add(task.file()));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot close the statistics scan of table " + table.name(), e);
    }
    List<FileGroup> summarized = new ArrayList<>();
    for (int position = 0; position < groups.size(); position++) {
      Map<Integer, ColumnSummary> summaries = new HashMap<>();
      folders.get(position).forEach((fieldId, folder) -> summaries.put(fieldId, folder.summary()));
      summarized.add(groups.get(position).withColumnSummaries(summaries));
    }
    return summarized;
  }
}
