package dev.lakeops.flink;

import dev.lakeops.telemetry.event.ScanVolume;
import dev.lakeops.telemetry.event.TableName;
import dev.lakeops.telemetry.event.TelemetryEvent;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

/**
 * Records writer commits with telemetry-common's existing event model, one event per commit:
 *
 * <ul>
 *   <li>{@code engine} is {@value #ENGINE}, which sets write events apart from query events;
 *   <li>{@code queryId} is {@code commit/<snapshot id>/data-files/<n>/delete-files/<m>};
 *   <li>{@code occurredAt} is the commit time, so events per minute are commits per minute;
 *   <li>{@code scanVolume} holds the bytes and rows written;
 *   <li>{@code columns} is empty, so the sort advisor, which counts filter columns, ignores it.
 * </ul>
 */
final class WriteTelemetry {
  static final String ENGINE = "flink-sink";
  private static final String DEFAULT_PART = "default";

  private WriteTelemetry() {}

  static TelemetryEvent event(TableName table, SnapshotWrites commit) {
    return new TelemetryEvent(
        ENGINE,
        table,
        "commit/"
            + commit.snapshotId()
            + "/data-files/"
            + commit.dataFiles()
            + "/delete-files/"
            + commit.deleteFiles(),
        Instant.ofEpochMilli(commit.timestampMillis()),
        List.of(),
        ScanVolume.of(commit.dataBytes(), commit.records()));
  }

  /** The data files of a commit event written by {@link #event}. */
  static int dataFiles(TelemetryEvent event) {
    String[] parts = event.queryId().split("/");
    return Integer.parseInt(parts[3]);
  }

  /**
   * The telemetry name of an Iceberg table name: {@code catalog.namespace...table}; names with
   * fewer parts (a path-based table) get {@value #DEFAULT_PART} for what is missing.
   */
  static TableName tableName(String icebergName) {
    String[] parts = icebergName.split("\\.");
    if (parts.length >= 3) {
      return TableName.of(
          parts[0],
          String.join(".", Arrays.copyOfRange(parts, 1, parts.length - 1)),
          parts[parts.length - 1]);
    }
    if (parts.length == 2) {
      return TableName.of(DEFAULT_PART, parts[0], parts[1]);
    }
    return TableName.of(DEFAULT_PART, DEFAULT_PART, icebergName);
  }
}
