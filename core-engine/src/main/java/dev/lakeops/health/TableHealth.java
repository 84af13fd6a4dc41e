package dev.lakeops.health;

/**
 * Cheap signals of a table's layout health, read from metadata only.
 *
 * @param dataFiles live data files
 * @param dataBytes their total size
 * @param smallDataFiles data files under 75% of the target file size
 * @param targetFileSizeBytes the table's target file size
 * @param positionDeleteFiles live position delete files and deletion vectors
 * @param equalityDeleteFiles live equality delete files
 * @param partitions partitions holding data
 * @param snapshots snapshots in the table's metadata
 * @param records live records before deletes
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
    long records) {

  public long averageFileBytes() {
    return dataFiles == 0 ? 0 : dataBytes / dataFiles;
  }

  public double smallFileRatio() {
    return dataFiles == 0 ? 0 : smallDataFiles / (double) dataFiles;
  }
}
