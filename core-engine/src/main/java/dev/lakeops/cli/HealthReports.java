package dev.lakeops.cli;

import dev.lakeops.health.TableHealth;
import dev.lakeops.unit.ByteSize;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

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

  static String human(String table, TableHealth health) {
    return String.format(
        Locale.ROOT,
        "%s%n  data files      %,d (%s, average %s; %,d small = %.0f%% under 75%% of the %s target)%n"
            + "  delete files    %,d position, %,d equality%n"
            + "  partitions      %,d%n  snapshots       %,d%n  records         %,d (before deletes)",
        table, health.dataFiles(), ByteSize.ofBytes(health.dataBytes()),
        ByteSize.ofBytes(health.averageFileBytes()), health.smallDataFiles(),
        health.smallFileRatio() * 100, ByteSize.ofBytes(health.targetFileSizeBytes()),
        health.positionDeleteFiles(), health.equalityDeleteFiles(), health.partitions(),
        health.snapshots(), health.records());
  }
}
