package dev.lakeops.commit;

import static java.util.Objects.requireNonNull;

import dev.lakeops.deletes.PositionDeleteWriters;
import dev.lakeops.rewrite.RewrittenGroup;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.BaseDeleteLoader;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.Deletes;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.util.ContentFileUtil;

/**
 * Re-bases position deletes that another writer added against a group's input files onto the
 * group's new files, so the group can still commit. Only groups written by the decode-free merge
 * qualify: it copies every row of its inputs, in order, each output file holding whole consecutive
 * inputs, so row {@code p} of input {@code i} is row {@code offset(i) + p} of its output file (the
 * offsets follow from the files' record counts, which are checked to add up). The positions are
 * written as one position delete file per group, committed with the rewrite at a newer sequence
 * number than the new data files, so they apply to them, in place of the concurrent delete files,
 * which must each name one input file of the group (as engines write them); otherwise the group is
 * dropped as before.
 */
final class PositionDeleteRebaser {
  private final Table table;
  private final OutputFileFactory outputs;
  private final BaseDeleteLoader loader;

  PositionDeleteRebaser(Table table) {
    this.table = requireNonNull(table, "table is null");
    this.outputs =
        OutputFileFactory.builderFor(table, 1, System.currentTimeMillis())
            .format(FileFormat.PARQUET)
            .operationId("lakeops-rebase-" + UUID.randomUUID())
            .build();
    this.loader = new BaseDeleteLoader(file -> table.io().newInputFile(file));
  }

  /**
   * The re-based deletes of {@code group}, or empty when it cannot be re-based (not written by the
   * decode-free merge, or a deletion vector among {@code newDeletes}).
   */
  Optional<RebasedGroup> rebase(RewrittenGroup group, List<DeleteFile> newDeletes) {
    if (!copiedInOrder(group) || newDeletes.stream().anyMatch(ContentFileUtil::isDV)) {
      return Optional.empty();
    }
    Optional<Map<String, OutputPosition>> mapping = positionsInOutputs(group);
    if (mapping.isEmpty()) {
      return Optional.empty();
    }
    Map<String, PositionDeleteIndex> byOutput = new TreeMap<>();
    long rows = 0;
    for (FileScanTask task : group.group().tasks()) {
      PositionDeleteIndex deleted = loader.loadPositionDeletes(newDeletes, task.file().location());
      if (deleted.isEmpty()) {
        continue;
      }
      OutputPosition target = mapping.get().get(task.file().location());
      PositionDeleteIndex positions =
          byOutput.computeIfAbsent(
              target.outputLocation(),
              location -> Deletes.toPositionIndex(CloseableIterable.empty()));
      deleted.forEach(position -> positions.delete(target.offset() + position));
      rows += deleted.cardinality();
    }
    if (byOutput.isEmpty()) {
      return Optional.of(new RebasedGroup(group, Optional.empty(), 0, List.of()));
    }
    if (!scopedToInputs(group, newDeletes)) {
      return Optional.empty();
    }
    return Optional.of(
        new RebasedGroup(group, Optional.of(write(group, byOutput)), rows, newDeletes));
  }

  /**
   * Whether every new delete file names one input file of the group: those are replaced by the
   * re-based file in the same commit (Iceberg's {@code RewriteFiles} adds delete files only in
   * place of others). A delete file that also deletes rows of other files must stay, so such a
   * group is dropped instead.
   */
  private static boolean scopedToInputs(RewrittenGroup group, List<DeleteFile> newDeletes) {
    java.util.Set<String> inputs = new java.util.HashSet<>();
    group.group().tasks().forEach(task -> inputs.add(task.file().location()));
    return newDeletes.stream()
        .map(ContentFileUtil::referencedDataFileLocation)
        .allMatch(location -> location != null && inputs.contains(location));
  }

  /**
   * The decode-free merge wrote this group: every input byte copied, nothing decoded, no deletes.
   */
  private static boolean copiedInOrder(RewrittenGroup group) {
    return group.decodedBytes() == 0
        && group.copiedBytes() == group.group().inputBytes()
        && !group.group().hasDeletes();
  }

  /** Each input's output file and row offset in it, or empty if the record counts do not add up. */
  private static Optional<Map<String, OutputPosition>> positionsInOutputs(RewrittenGroup group) {
    List<DataFile> added = group.addedFiles();
    Map<String, OutputPosition> mapping = new TreeMap<>();
    int output = 0;
    long offset = 0;
    for (FileScanTask task : group.group().tasks()) {
      if (output < added.size() && offset == added.get(output).recordCount() && offset > 0) {
        output++;
        offset = 0;
      }
      if (output >= added.size()
          || offset + task.file().recordCount() > added.get(output).recordCount()) {
        return Optional.empty();
      }
      mapping.put(task.file().location(), new OutputPosition(added.get(output).location(), offset));
      offset += task.file().recordCount();
    }
    boolean complete = output == added.size() - 1 && offset == added.get(output).recordCount();
    return complete ? Optional.of(mapping) : Optional.empty();
  }

  private DeleteFile write(RewrittenGroup group, Map<String, PositionDeleteIndex> byOutput) {
    PartitionSpec spec = table.specs().get(group.group().specId());
    PositionDeleteWriter<Record> writer =
        PositionDeleteWriters.open(table, outputs, spec, group.group().partition());
    try (PositionDeleteWriter<Record> closing = writer) {
      PositionDelete<Record> delete = PositionDelete.create();
      for (Map.Entry<String, PositionDeleteIndex> output : byOutput.entrySet()) {
        output
            .getValue()
            .forEach(position -> closing.write(delete.set(output.getKey(), position, null)));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot write a re-based position delete file for table " + table.name(), e);
    }
    return writer.toDeleteFile();
  }

  private record OutputPosition(String outputLocation, long offset) {}

  /**
   * A group whose concurrent position deletes were re-based.
   *
   * @param group the group
   * @param deleteFile the position delete file against the group's new files; empty when the
   *     concurrent deletes deleted none of its rows
   * @param rows positions re-based
   * @param sources the concurrent delete files that were re-based
   */
  record RebasedGroup(
      RewrittenGroup group, Optional<DeleteFile> deleteFile, long rows, List<DeleteFile> sources) {
    RebasedGroup {
      requireNonNull(group, "group is null");
      requireNonNull(deleteFile, "deleteFile is null");
      sources = List.copyOf(requireNonNull(sources, "sources is null"));
    }
  }
}
