package dev.lakeops.cli;

import dev.lakeops.health.HealthPart;
import dev.lakeops.health.PartitionHealth;
import dev.lakeops.health.SmallFileRule;
import dev.lakeops.health.TableHealth;
import dev.lakeops.health.TableHealthReport;
import dev.lakeops.unit.ByteSize;
import dev.lakeops.unit.TimeInput;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** Renders table health as JSON or as a short human table. */
final class HealthReports {
  private HealthReports() {}

  static Map<String, Object> json(String table, TableHealth health) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("table", table);
    json.put("data_files", health.dataFiles());
    json.put("data_bytes", health.dataBytes());
    json.put("small_data_files", health.smallDataFiles());
    json.put("average_file_bytes", health.averageFileBytes());
    json.put("target_file_size_bytes", health.targetFileSizeBytes());
    json.put("position_delete_files", health.positionDeleteFiles());
    json.put("equality_delete_files", health.equalityDeleteFiles());
    json.put("partitions", health.partitions());
    json.put("snapshots", health.snapshots());
    json.put("records", health.records());
    return json;
  }

  /**
   * The fields of {@link #json(String, TableHealth)} and the report's score, manifests and history.
   */
  static Map<String, Object> json(
      String table, TableHealthReport report, boolean withPartitions, Instant now) {
    TableHealth health = report.table();
    Map<String, Object> json = json(table, health);
    json.put("small_data_bytes", health.smallDataBytes());
    json.put("delete_file_bytes", health.deleteFileBytes());
    json.put("delete_file_ratio", health.deleteFileRatio());
    json.put("manifests", health.manifests());
    json.put("manifest_bytes", health.manifestBytes());
    json.put("average_manifest_bytes", health.averageManifestBytes());
    json.put("oldest_snapshot", health.oldestSnapshot().map(Instant::toString).orElse(null));
    json.put(
        "oldest_snapshot_age_seconds",
        health.oldestSnapshot().map(then -> seconds(then, now)).orElse(null));
    json.put("expirable_snapshots", report.expirableSnapshots());
    json.put("last_rewrite", health.lastRewrite().map(Instant::toString).orElse(null));
    json.put(
        "seconds_since_last_rewrite",
        health.lastRewrite().map(then -> seconds(then, now)).orElse(null));
    json.put("snapshot_id", report.snapshotId().orElse(null));
    json.put("score", report.score().score());
    json.put("healthy", report.score().healthy());
    json.put("worst_part", report.score().worst().name());
    List<Map<String, Object>> parts = new ArrayList<>();
    for (HealthPart part : report.score().parts()) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("name", part.name());
      entry.put("score", part.score());
      entry.put("detail", part.detail());
      parts.add(entry);
    }
    json.put("score_parts", parts);
    if (withPartitions) {
      List<Map<String, Object>> partitions = new ArrayList<>();
      for (PartitionHealth partition : report.partitions()) {
        partitions.add(partitionJson(partition));
      }
      json.put("partition_health", partitions);
    }
    return json;
  }

  static String human(String table, TableHealth health) {
    return human(table, health, SmallFileRule.DEFAULT_RATIO);
  }

  private static String human(String table, TableHealth health, double smallFileRatio) {
    return String.format(
        Locale.ROOT,
        "%s%n  data files      %,d (%s, average %s; %,d small = %.0f%% under %.0f%% of the %s target)%n"
            + "  delete files    %,d position, %,d equality%n"
            + "  partitions      %,d%n  snapshots       %,d%n  records         %,d (before deletes)",
        table,
        health.dataFiles(),
        ByteSize.ofBytes(health.dataBytes()),
        ByteSize.ofBytes(health.averageFileBytes()),
        health.smallDataFiles(),
        health.smallFileRatio() * 100,
        smallFileRatio * 100,
        ByteSize.ofBytes(health.targetFileSizeBytes()),
        health.positionDeleteFiles(),
        health.equalityDeleteFiles(),
        health.partitions(),
        health.snapshots(),
        health.records());
  }

  static String human(
      String table,
      TableHealthReport report,
      double smallFileRatio,
      boolean withPartitions,
      Instant now) {
    TableHealth health = report.table();
    StringBuilder text = new StringBuilder(human(table, health, smallFileRatio));
    text.append(
        String.format(
            Locale.ROOT,
            "%n  manifests       %,d (average %s)%n  oldest snapshot %s (%,d expirable)%n  last rewrite    %s%n"
                + "  health score    %d/100%s (worst: %s)",
            health.manifests(),
            ByteSize.ofBytes(health.averageManifestBytes()),
            age(health.oldestSnapshot(), now),
            report.expirableSnapshots(),
            age(health.lastRewrite(), now),
            report.score().score(),
            report.score().healthy() ? " healthy" : "",
            report.score().worst().name()));
    for (HealthPart part : report.score().parts()) {
      text.append(
          String.format(
              Locale.ROOT, "%n    %-13s %3d  %s", part.name(), part.score(), part.detail()));
    }
    if (withPartitions) {
      for (PartitionHealth partition : report.partitions()) {
        text.append(
            String.format(
                Locale.ROOT,
                "%n  %s: %,d data files (%,d small, %s), %,d position + %,d equality delete files",
                partition.displayName(),
                partition.dataFiles(),
                partition.smallDataFiles(),
                ByteSize.ofBytes(partition.dataBytes()),
                partition.positionDeleteFiles(),
                partition.equalityDeleteFiles()));
      }
    }
    return text.toString();
  }

  private static Map<String, Object> partitionJson(PartitionHealth partition) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("spec_id", partition.specId());
    json.put("partition", partition.path());
    json.put("data_files", partition.dataFiles());
    json.put("data_bytes", partition.dataBytes());
    json.put("small_data_files", partition.smallDataFiles());
    json.put("small_data_bytes", partition.smallDataBytes());
    json.put("position_delete_files", partition.positionDeleteFiles());
    json.put("equality_delete_files", partition.equalityDeleteFiles());
    json.put("delete_file_bytes", partition.deleteFileBytes());
    json.put("records", partition.records());
    return json;
  }

  private static long seconds(Instant then, Instant now) {
    return Math.max(0, Duration.between(then, now).toSeconds());
  }

  private static String age(Optional<Instant> then, Instant now) {
    return then.map(time -> TimeInput.format(Duration.ofSeconds(seconds(time, now))) + " ago")
        .orElse("never");
  }
}
