package dev.lakeops.observe;

import dev.lakeops.health.TableHealth;
import java.time.Instant;

/** Turns the core's health figures into the samples the dashboard and metrics show. */
public final class TableSamples {
  private TableSamples() {}

  /**
   * A sample from {@code health}: the score loses up to 60 points for the share of small files and
   * up to 40 for delete files per data file (one delete file per data file or more costs all 40).
   */
  public static TableSample of(String table, TableHealth health, Instant sampledAt) {
    long deleteFiles = health.positionDeleteFiles() + health.equalityDeleteFiles();
    double deleteRatio = health.dataFiles() == 0 ? 0 : Math.min(1.0, deleteFiles / (double) health.dataFiles());
    int smallFilePenalty = (int) Math.round(60 * health.smallFileRatio());
    int deletePenalty = (int) Math.round(40 * deleteRatio);
    String worst = smallFilePenalty == 0 && deletePenalty == 0 ? "" : smallFilePenalty >= deletePenalty ? "small files" : "delete files";
    return new TableSample(
        table, sampledAt, 100 - smallFilePenalty - deletePenalty, worst, health.dataFiles(),
        health.smallDataFiles(), deleteFiles, health.dataBytes());
  }
}
