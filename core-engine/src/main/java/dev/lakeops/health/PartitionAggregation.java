package dev.lakeops.health;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Sums {@link LiveFiles} into per-partition and table-wide figures under one small-file rule. */
final class PartitionAggregation {
  private PartitionAggregation() {}

  private static final class Sums {
    long dataFiles;
    long dataBytes;
    long smallFiles;
    long smallBytes;
    long positionDeletes;
    long equalityDeletes;
    long deleteBytes;
    long records;
  }

  static List<PartitionHealth> partitions(LiveFiles files, SmallFileRule rule, long targetFileSizeBytes) {
    requireNonNull(files, "files is null");
    requireNonNull(rule, "rule is null");
    Map<LiveFiles.PartitionId, Sums> sums =
        new TreeMap<>(
            Comparator.comparingInt(LiveFiles.PartitionId::specId).thenComparing(LiveFiles.PartitionId::path));
    for (LiveFiles.DataEntry entry : files.dataFiles().values()) {
      Sums sum = sums.computeIfAbsent(entry.partition(), ignored -> new Sums());
      sum.dataFiles++;
      sum.dataBytes += entry.sizeBytes();
      sum.records += entry.records();
      if (rule.isSmall(entry.sizeBytes(), targetFileSizeBytes)) {
        sum.smallFiles++;
        sum.smallBytes += entry.sizeBytes();
      }
    }
    for (LiveFiles.DeleteEntry entry : files.deleteFiles().values()) {
      Sums sum = sums.computeIfAbsent(entry.partition(), ignored -> new Sums());
      if (entry.content() == org.apache.iceberg.FileContent.EQUALITY_DELETES) {
        sum.equalityDeletes++;
      } else {
        sum.positionDeletes++;
      }
      sum.deleteBytes += entry.sizeBytes();
    }
    List<PartitionHealth> partitions = new ArrayList<>(sums.size());
    sums.forEach(
        (id, sum) ->
            partitions.add(
                new PartitionHealth(
                    id.specId(), id.path(), files.values(id), sum.dataFiles, sum.dataBytes, sum.smallFiles,
                    sum.smallBytes, sum.positionDeletes, sum.equalityDeletes, sum.deleteBytes, sum.records)));
    return partitions;
  }
}
