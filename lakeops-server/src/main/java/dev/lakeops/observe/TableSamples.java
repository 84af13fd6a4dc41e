package dev.lakeops.observe;

import dev.lakeops.health.HealthPart;
import dev.lakeops.health.TableHealthReport;
import java.time.Instant;

/** Turns a health evaluation into the sample the dashboard and the metrics show. */
public final class TableSamples {
  private TableSamples() {}

  /** The report's score, its worst part (empty when every part is at 100) and file counts. */
  public static TableSample of(String table, TableHealthReport report, Instant sampledAt) {
    HealthPart worst = report.score().worst();
    return new TableSample(
        table,
        sampledAt,
        report.score().score(),
        worst.score() >= 100 ? "" : worst.name() + ": " + worst.detail(),
        report.table().dataFiles(),
        report.table().smallDataFiles(),
        report.table().deleteFiles(),
        report.table().dataBytes());
  }
}
