package dev.lakeops.observe;

import static java.util.Objects.requireNonNull;

import java.time.Instant;

/**
 * One health evaluation of a table, as the dashboard and the metrics show it.
 *
 * @param table the table's name, {@code namespace.table}
 * @param sampledAt when it was evaluated
 * @param healthScore 0 (worst) to 100 (healthy)
 * @param worstPart the name of the health part that cost most, empty when healthy
 * @param dataFiles live data files
 * @param smallFiles live data files under the small-file size
 * @param deleteFiles live position and equality delete files
 * @param dataBytes total size of the live data files
 */
public record TableSample(
    String table,
    Instant sampledAt,
    int healthScore,
    String worstPart,
    long dataFiles,
    long smallFiles,
    long deleteFiles,
    long dataBytes) {
  public TableSample {
    requireNonNull(table, "table is null");
    requireNonNull(sampledAt, "sampledAt is null");
    requireNonNull(worstPart, "worstPart is null");
    if (healthScore < 0 || healthScore > 100) {
      throw new IllegalArgumentException("Health score must be within 0-100: " + healthScore);
    }
  }
}
