package dev.lakeops.maintain.orphan;

import static java.util.Objects.requireNonNull;

import dev.lakeops.maintain.files.ManifestContents;
import dev.lakeops.maintain.files.ParallelTasks;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.PartitionStatisticsFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StatisticsFile;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.io.FileIO;

/**
 * The mark phase of orphan removal: adds to an index every file that {@code metadata} reaches — the
 * metadata file and those in its log, the version hint, statistics and partition statistics, and
 * for every snapshot of every ref its manifest list, manifests, data and delete files.
 */
final class ReachableFileCollector {
  private static final String VERSION_HINT = "metadata/version-hint.text";

  private final FileIO io;
  private final ExecutorService executor;
  private final ReferencedFileIndex index;
  private final Set<Long> markedSnapshots = new HashSet<>();
  private final Set<String> markedManifests = ConcurrentHashMap.newKeySet();

  ReachableFileCollector(FileIO io, ExecutorService executor, ReferencedFileIndex index) {
    this.io = requireNonNull(io, "io is null");
    this.executor = requireNonNull(executor, "executor is null");
    this.index = requireNonNull(index, "index is null");
  }

  /** Marks what {@code metadata} reaches; snapshots marked by an earlier call are skipped. */
  void mark(TableMetadata metadata) {
    index.add(metadata.metadataFileLocation());
    metadata.previousFiles().forEach(entry -> index.add(entry.file()));
    index.add(metadata.location() + "/" + VERSION_HINT);
    for (StatisticsFile file : metadata.statisticsFiles()) {
      index.add(file.path());
    }
    for (PartitionStatisticsFile file : metadata.partitionStatisticsFiles()) {
      index.add(file.path());
    }
    List<Snapshot> fresh =
        metadata.snapshots().stream()
            .filter(snapshot -> markedSnapshots.add(snapshot.snapshotId()))
            .toList();
    Map<String, ManifestFile> manifests = new ConcurrentHashMap<>();
    ParallelTasks.forEach(
        executor,
        fresh,
        snapshot -> {
          index.add(snapshot.manifestListLocation());
          for (ManifestFile manifest : snapshot.allManifests(io)) {
            if (markedManifests.add(manifest.path())) {
              manifests.put(manifest.path(), manifest);
            }
          }
        });
    Map<Integer, org.apache.iceberg.PartitionSpec> specs = metadata.specsById();
    ParallelTasks.forEach(
        executor,
        manifests.values(),
        manifest -> {
          index.add(manifest.path());
          ManifestContents.forEachLiveLocation(manifest, io, specs, index::add);
        });
  }
}
