package dev.lakeops.health;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.Optional;

/**
 * Cheap signals of a table's layout health, read from metadata only.
 *
 * @param dataFiles live data files
 * @param dataBytes their total size
 * @param smallDataFiles data files under the small-file ratio (see {@link SmallFileRule}) of the
 *     target file size
 * @param targetFileSizeBytes the target file size the small files are measured against
 * @param positionDeleteFiles live position delete files and deletion vectors
 * @param equalityDeleteFiles live equality delete files
 * @param partitions partitions holding data
 * @param snapshots snapshots in the table's metadata
 * @param records live records before deletes
 * @param smallDataBytes total size of the small data files
 * @param deleteFileBytes total size of the live delete files
 * @param manifests data and delete manifests of the current snapshot
 * @param manifestBytes their total size
 * @param oldestSnapshot commit time of the oldest snapshot kept in the metadata
 * @param lastRewrite commit time of the newest {@code replace} snapshot (a compaction, a manifest
 *     or delete-file rewrite) in the current snapshot's history
 * @param lastDataRewrite commit time of the newest {@code replace} snapshot that removed data files
 *     (a compaction) in the current snapshot's history
 */
public record TableHealth(
    long dataFiles,
    long dataBytes,
    long smallDataFiles,
    long targetFileSizeBytes,
    long positionDeleteFiles,
    long equalityDeleteFiles,
    long partitions,
    long snapshots,
    long records,
    long smallDataBytes,
    long deleteFileBytes,
    long manifests,
    long manifestBytes,
    Optional<Instant> oldestSnapshot,
    Optional<Instant> lastRewrite,
    Optional<Instant> lastDataRewrite) {

  public TableHealth {
    requireNonNull(oldestSnapshot, "oldestSnapshot is null");
    requireNonNull(lastRewrite, "lastRewrite is null");
    requireNonNull(lastDataRewrite, "lastDataRewrite is null");
  }

  public long averageFileBytes() {
    return dataFiles == 0 ? 0 : dataBytes / dataFiles;
  }

  public double smallFileRatio() {
    return dataFiles == 0 ? 0 : smallDataFiles / (double) dataFiles;
  }

  public long deleteFiles() {
    return positionDeleteFiles + equalityDeleteFiles;
  }

  /** Delete files per data file (0 for a table without data files). */
  public double deleteFileRatio() {
    return dataFiles == 0 ? 0 : deleteFiles() / (double) dataFiles;
  }

  public long averageManifestBytes() {
    return manifests == 0 ? 0 : manifestBytes / manifests;
  }
}
