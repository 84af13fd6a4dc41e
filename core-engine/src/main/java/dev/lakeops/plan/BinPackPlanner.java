package dev.lakeops.plan;

import static java.util.Objects.requireNonNull;

import dev.lakeops.health.CompactionOutputs;
import dev.lakeops.io.ManifestReads;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.util.StructLikeMap;

/**
 * Plans a binpack rewrite: picks the files Iceberg's size and delete thresholds select, groups them
 * per partition of every partition spec the table has had, and packs each partition's files into
 * groups no larger than {@code max-file-group-size-bytes}.
 */
public final class BinPackPlanner {
  private final Table table;
  private final RewriteOptions options;

  /**
   * The planned files carry no column statistics (Iceberg's scans drop them), so a plan of 100,000
   * files never holds every file's footer statistics; rewrites that need some get per-group
   * summaries ({@link GroupSummarizer}).
   */
  public BinPackPlanner(Table table, RewriteOptions options) {
    this.table = requireNonNull(table, "table is null");
    this.options = requireNonNull(options, "options is null");
  }

  /** Plans against {@code snapshot}; only files matching {@code filter} are candidates. */
  public RewritePlan plan(Snapshot snapshot, Expression filter) {
    requireNonNull(snapshot, "snapshot is null");
    requireNonNull(filter, "filter is null");
    Map<String, Set<String>> dataFilesByDeleteFile = new HashMap<>();
    Map<Integer, StructLikeMap<List<FileScanTask>>> candidates = new HashMap<>();
    boolean filtered = filter != Expressions.alwaysTrue();
    Set<String> matching = filtered ? matchingDataFiles(snapshot, filter) : Set.of();
    FileAges ages = FileAges.of(table, snapshot, options.minAge());
    try (CloseableIterable<FileScanTask> tasks = scan(snapshot, Expressions.alwaysTrue())) {
      for (FileScanTask task : tasks) {
        String dataPath = task.file().location();
        for (DeleteFile delete : task.deletes()) {
          dataFilesByDeleteFile
              .computeIfAbsent(delete.location(), key -> new HashSet<>())
              .add(dataPath);
        }
        if ((!filtered || matching.contains(dataPath))
            && ages.oldEnough(task.file())
            && shouldRewriteFile(task)) {
          int specId = task.file().specId();
          candidates
              .computeIfAbsent(
                  specId, id -> StructLikeMap.create(table.specs().get(id).partitionType()))
              .computeIfAbsent(task.file().partition(), partition -> new ArrayList<>())
              .add(task);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot close the scan of table " + table.name(), e);
    }
    List<FileGroup> groups = packGroups(candidates);
    return new RewritePlan(
        snapshot.snapshotId(),
        snapshot.sequenceNumber(),
        groups,
        deletesOfGroups(dataFilesByDeleteFile, groups),
        options);
  }

  /**
   * The entries of {@code dataFilesByDeleteFile} for the delete files the planned groups carry: the
   * committer asks only about those, so the plan keeps no other delete file's targets.
   */
  private static Map<String, Set<String>> deletesOfGroups(
      Map<String, Set<String>> dataFilesByDeleteFile, List<FileGroup> groups) {
    Map<String, Set<String>> kept = new HashMap<>();
    for (FileGroup group : groups) {
      for (FileScanTask task : group.tasks()) {
        for (DeleteFile delete : task.deletes()) {
          Set<String> targets = dataFilesByDeleteFile.get(delete.location());
          if (targets != null) {
            kept.putIfAbsent(delete.location(), targets);
          }
        }
      }
    }
    return kept;
  }

  private Set<String> matchingDataFiles(Snapshot snapshot, Expression filter) {
    Set<String> paths = new HashSet<>();
    try (CloseableIterable<FileScanTask> tasks = scan(snapshot, filter)) {
      tasks.forEach(task -> paths.add(task.file().location()));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot close the scan of table " + table.name(), e);
    }
    return paths;
  }

  private CloseableIterable<FileScanTask> scan(Snapshot snapshot, Expression filter) {
    TableScan scan =
        ManifestReads.planned(
            table.newScan().useSnapshot(snapshot.snapshotId()).filter(filter).ignoreResiduals(),
            table);
    return scan.planFiles();
  }

  private List<FileGroup> packGroups(Map<Integer, StructLikeMap<List<FileScanTask>>> candidates) {
    List<FileGroup> groups = new ArrayList<>();
    int remainingFiles = options.maxFilesToRewrite();
    List<Integer> specIds = candidates.keySet().stream().sorted().toList();
    for (int specId : specIds) {
      PartitionSpec spec = table.specs().get(specId);
      for (Map.Entry<StructLike, List<FileScanTask>> partition :
          candidates.get(specId).entrySet()) {
        for (List<FileScanTask> bin : packBins(convergent(partition.getValue()))) {
          if (!shouldRewriteGroup(bin) || remainingFiles <= 0) {
            continue;
          }
          List<FileScanTask> limited = bin.subList(0, Math.min(bin.size(), remainingFiles));
          remainingFiles -= limited.size();
          groups.add(
              new FileGroup(
                  groups.size(),
                  specId,
                  partition.getKey(),
                  spec.isUnpartitioned()
                      ? "(unpartitioned)"
                      : spec.partitionToPath(partition.getKey()),
                  limited));
        }
      }
    }
    return groups;
  }

  /**
   * A partition's candidates without the small compaction outputs that {@code recompact-min-bytes}
   * and {@code recompact-min-files} keep: unless the small files writers added since hold a target
   * file's worth of bytes (or the outputs pile up), rewriting the outputs again would only write
   * another small file.
   */
  private List<FileScanTask> convergent(List<FileScanTask> tasks) {
    if (options.recompactMinBytes() <= 0 || options.rewriteAll()) {
      return tasks;
    }
    List<FileScanTask> outputs = new ArrayList<>();
    long freshSmallBytes = 0;
    for (FileScanTask task : tasks) {
      boolean small = task.file().fileSizeInBytes() < options.minFileSizeBytes();
      boolean deletes = hasTooManyDeletes(task) || hasTooHighDeleteRatio(task);
      if (small && !deletes && CompactionOutputs.isCompactionOutput(task.file())) {
        outputs.add(task);
      } else if (small) {
        freshSmallBytes += task.file().fileSizeInBytes();
      }
    }
    boolean pileUp =
        options.recompactMinFiles() > 0 && outputs.size() >= options.recompactMinFiles();
    if (outputs.isEmpty() || freshSmallBytes >= options.recompactMinBytes() || pileUp) {
      return tasks;
    }
    List<FileScanTask> kept = new ArrayList<>(tasks);
    kept.removeAll(outputs);
    return kept;
  }

  /** First-fit decreasing bin packing by file size, each bin at most max-file-group-size-bytes. */
  private List<List<FileScanTask>> packBins(List<FileScanTask> tasks) {
    List<FileScanTask> sorted = new ArrayList<>(tasks);
    sorted.sort(
        Comparator.comparingLong((FileScanTask task) -> task.file().fileSizeInBytes())
            .reversed()
            .thenComparing(task -> task.file().location()));
    List<List<FileScanTask>> bins = new ArrayList<>();
    List<Long> binSizes = new ArrayList<>();
    for (FileScanTask task : sorted) {
      long size = task.file().fileSizeInBytes();
      int chosen = -1;
      for (int bin = 0; bin < bins.size(); bin++) {
        if (binSizes.get(bin) + size <= options.maxFileGroupSizeBytes()) {
          chosen = bin;
          break;
        }
      }
      if (chosen < 0) {
        bins.add(new ArrayList<>());
        binSizes.add(0L);
        chosen = bins.size() - 1;
      }
      bins.get(chosen).add(task);
      binSizes.set(chosen, binSizes.get(chosen) + size);
    }
    return bins;
  }

  private boolean shouldRewriteFile(FileScanTask task) {
    long size = task.file().fileSizeInBytes();
    return options.rewriteAll()
        || size < options.minFileSizeBytes()
        || size > options.maxFileSizeBytes()
        || hasTooManyDeletes(task)
        || hasTooHighDeleteRatio(task);
  }

  private boolean shouldRewriteGroup(List<FileScanTask> group) {
    long bytes = group.stream().mapToLong(task -> task.file().fileSizeInBytes()).sum();
    boolean multipleFiles = group.size() > 1;
    return options.rewriteAll()
        || (multipleFiles && group.size() >= options.minInputFiles())
        || (multipleFiles && bytes > options.targetFileSizeBytes())
        || bytes > options.maxFileSizeBytes()
        || group.stream().anyMatch(task -> hasTooManyDeletes(task) || hasTooHighDeleteRatio(task));
  }

  private boolean hasTooManyDeletes(FileScanTask task) {
    return task.deletes().size() >= options.deleteFileThreshold();
  }

  private boolean hasTooHighDeleteRatio(FileScanTask task) {
    long recordCount = task.file().recordCount();
    if (recordCount <= 0) {
      return false;
    }
    long deletedRows =
        task.deletes().stream()
            .filter(delete -> delete.content() == FileContent.POSITION_DELETES)
            .filter(delete -> delete.referencedDataFile() != null)
            .mapToLong(DeleteFile::recordCount)
            .sum();
    return deletedRows / (double) recordCount >= options.deleteRatioThreshold();
  }
}
