package dev.lakeops.compact;

import static java.util.Objects.requireNonNull;

import dev.lakeops.io.ManifestReads;
import dev.lakeops.plan.FileGroup;
import dev.lakeops.verify.ColumnCounts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;

/**
 * Per file group and top-level primitive column, the value and null counts the manifests state for
 * the group's input files. Planned files carry no column statistics, so they are read by one more
 * scan of the planned snapshot with the statistics of those columns alone, folded per group as they
 * stream by. A column some input file has no counts for (metrics mode {@code none}, a column added
 * later) has no entry for that group: the verifier skips it.
 */
final class InputColumnCounts {
  /** No counts for any group: every column is skipped. */
  public static final InputColumnCounts NONE = new InputColumnCounts(Map.of(), Map.of());

  private final Map<Integer, Map<Integer, ColumnCounts>> countsByGroup;
  private final Map<Integer, String> columnNames;

  private InputColumnCounts(
      Map<Integer, Map<Integer, ColumnCounts>> countsByGroup, Map<Integer, String> columnNames) {
    this.countsByGroup = Map.copyOf(requireNonNull(countsByGroup, "countsByGroup is null"));
    this.columnNames = Map.copyOf(requireNonNull(columnNames, "columnNames is null"));
  }

  /** The counts of {@code groups}, planned from snapshot {@code snapshotId} of {@code table}. */
  public static InputColumnCounts read(Table table, long snapshotId, List<FileGroup> groups) {
    Schema schema = table.schema();
    List<Types.NestedField> columns =
        schema.columns().stream().filter(column -> column.type().isPrimitiveType()).toList();
    if (groups.isEmpty() || columns.isEmpty()) {
      return NONE;
    }
    Map<String, Integer> groupByPath = new HashMap<>();
    for (FileGroup group : groups) {
      group.tasks().forEach(task -> groupByPath.put(task.file().location(), group.index()));
    }
    Map<Integer, Map<Integer, ColumnCounts>> counts = new HashMap<>();
    Map<Integer, Set<Integer>> missing = new HashMap<>();
    try (CloseableIterable<FileScanTask> tasks =
        ManifestReads.planned(
                table
                    .newScan()
                    .useSnapshot(snapshotId)
                    .ignoreResiduals()
                    .includeColumnStats(columns.stream().map(Types.NestedField::name).toList()),
                table)
            .planFiles()) {
      for (FileScanTask task : tasks) {
        Integer group = groupByPath.get(task.file().location());
        if (group != null) {
          fold(
              task.file(),
              columns,
              counts.computeIfAbsent(group, key -> new HashMap<>()),
              missing.computeIfAbsent(group, key -> new HashSet<>()));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot close the column statistics scan of table " + table.name(), e);
    }
    missing.forEach((group, fieldIds) -> fieldIds.forEach(counts.get(group)::remove));
    Map<Integer, String> names = new HashMap<>();
    columns.forEach(column -> names.put(column.fieldId(), column.name()));
    return new InputColumnCounts(counts, names);
  }

  /**
   * Starts {@link #read} on a thread of its own, so that the scan's requests overlap the rewrite
   * rather than delay its start; the supplier waits for the counts (verification needs them only
   * once a group is written) and rethrows what the scan failed with.
   */
  public static Supplier<InputColumnCounts> readInBackground(
      Table table, long snapshotId, List<FileGroup> groups) {
    CompletableFuture<InputColumnCounts> counts = new CompletableFuture<>();
    Thread reader =
        new Thread(
            () -> {
              try {
                counts.complete(read(table, snapshotId, groups));
              } catch (RuntimeException | Error e) {
                counts.completeExceptionally(e);
              }
            },
            "lakeops-input-counts");
    reader.setDaemon(true);
    reader.start();
    return () -> {
      try {
        return counts.join();
      } catch (CompletionException e) {
        if (e.getCause() instanceof RuntimeException cause) {
          throw cause;
        }
        throw e;
      }
    };
  }

  private static void fold(
      DataFile file,
      List<Types.NestedField> columns,
      Map<Integer, ColumnCounts> counts,
      Set<Integer> missing) {
    for (Types.NestedField column : columns) {
      int fieldId = column.fieldId();
      Optional<ColumnCounts> fileCounts = countsOf(file, fieldId);
      if (fileCounts.isEmpty()) {
        missing.add(fieldId);
      } else {
        counts.merge(fieldId, fileCounts.get(), ColumnCounts::plus);
      }
    }
  }

  /** The counts of column {@code fieldId} that {@code file}'s metrics state, if both are there. */
  public static Optional<ColumnCounts> countsOf(DataFile file, int fieldId) {
    Long values = file.valueCounts() == null ? null : file.valueCounts().get(fieldId);
    Long nulls = file.nullValueCounts() == null ? null : file.nullValueCounts().get(fieldId);
    return values == null || nulls == null
        ? Optional.empty()
        : Optional.of(new ColumnCounts(values, nulls));
  }

  /** The name of column {@code fieldId}, as error messages give it. */
  public String columnName(int fieldId) {
    return columnNames.getOrDefault(fieldId, "#" + fieldId);
  }

  /** Column id → counts over the input files of group {@code groupIndex}. */
  public Map<Integer, ColumnCounts> of(int groupIndex) {
    return countsByGroup.getOrDefault(groupIndex, Map.of());
  }
}
