package dev.lakeops.maintain.expire;

import static java.util.Objects.requireNonNull;

import dev.lakeops.maintain.files.ManifestContents;
import dev.lakeops.maintain.files.ParallelTasks;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.io.FileIO;

/**
 * Mark and sweep over manifests: the candidates are the files reachable from expired snapshots;
 * every manifest of every retained snapshot is then streamed and each file it still lists is struck
 * from the candidates. Only the candidates are held in memory, never the whole table.
 */
final class ExpiredFileCollector {
  private final FileIO io;
  private final Map<Integer, PartitionSpec> specs;
  private final ExecutorService executor;

  ExpiredFileCollector(FileIO io, Map<Integer, PartitionSpec> specs, ExecutorService executor) {
    this.io = requireNonNull(io, "io is null");
    this.specs = Map.copyOf(requireNonNull(specs, "specs is null"));
    this.executor = requireNonNull(executor, "executor is null");
  }

  ExpiredFiles collect(
      Collection<Snapshot> expired,
      Collection<Snapshot> retained,
      Set<String> statisticsBefore,
      Set<String> statisticsAfter) {
    if (expired.isEmpty()) {
      return new ExpiredFiles(
          List.of(),
          List.of(),
          List.of(),
          List.of(),
          List.of(),
          without(statisticsBefore, statisticsAfter));
    }
    Map<String, ManifestFile> retainedManifests = manifestsOf(retained);
    Map<String, ManifestFile> expiredManifests = manifestsOf(expired);
    expiredManifests.keySet().removeAll(retainedManifests.keySet());

    Map<String, FileContent> candidates = new ConcurrentHashMap<>();
    ParallelTasks.forEach(
        executor,
        expiredManifests.values(),
        manifest -> ManifestContents.forEachLiveFile(manifest, io, specs, candidates::put));
    if (!candidates.isEmpty()) {
      ParallelTasks.forEach(
          executor,
          retainedManifests.values(),
          manifest -> {
            if (!candidates.isEmpty()) {
              ManifestContents.forEachLiveLocation(manifest, io, specs, candidates::remove);
            }
          });
    }
    return new ExpiredFiles(
        sorted(candidates, FileContent.DATA),
        sorted(candidates, FileContent.POSITION_DELETES),
        sorted(candidates, FileContent.EQUALITY_DELETES),
        sorted(expiredManifests.keySet()),
        manifestLists(expired, retained),
        without(statisticsBefore, statisticsAfter));
  }

  private Map<String, ManifestFile> manifestsOf(Collection<Snapshot> snapshots) {
    Map<String, ManifestFile> manifests = new ConcurrentHashMap<>();
    ParallelTasks.forEach(
        executor,
        snapshots,
        snapshot ->
            snapshot
                .allManifests(io)
                .forEach(manifest -> manifests.putIfAbsent(manifest.path(), manifest)));
    return manifests;
  }

  private static List<String> manifestLists(
      Collection<Snapshot> expired, Collection<Snapshot> retained) {
    Set<String> kept = new HashSet<>();
    retained.forEach(snapshot -> kept.add(snapshot.manifestListLocation()));
    List<String> lists = new ArrayList<>();
    for (Snapshot snapshot : expired) {
      String location = snapshot.manifestListLocation();
      if (location != null && !kept.contains(location)) {
        lists.add(location);
      }
    }
    return lists;
  }

  private static List<String> without(Set<String> before, Set<String> after) {
    List<String> removed = new ArrayList<>(before);
    removed.removeAll(after);
    removed.sort(null);
    return removed;
  }

  private static List<String> sorted(Map<String, FileContent> candidates, FileContent content) {
    List<String> list = new ArrayList<>();
    candidates.forEach(
        (location, kind) -> {
          if (kind == content) {
            list.add(location);
          }
        });
    list.sort(null);
    return list;
  }

  private static List<String> sorted(Collection<String> locations) {
    List<String> list = new ArrayList<>(locations);
    list.sort(null);
    return list;
  }
}
