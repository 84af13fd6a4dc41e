package dev.lakeops.health;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One partition's layout signals, read from metadata only.
 *
 * @param specId the partition spec the files were written with
 * @param path the partition as Iceberg names it in paths, e.g. {@code day=2026-12-01}; empty for an
 *     unpartitioned spec
 * @param values the partition values in spec field order (Iceberg's internal representation: days
 *     since epoch for {@code day}, strings for identity strings); may hold nulls
 * @param dataFiles live data files
 * @param dataBytes their total size
 * @param smallDataFiles small data files (see {@link SmallFileRule})
 * @param smallDataBytes their total size
 * @param positionDeleteFiles live position delete files and deletion vectors
 * @param equalityDeleteFiles live equality delete files
 * @param deleteFileBytes total size of the live delete files
 * @param records live records before deletes
 * @param compactedSmallFiles of the small data files, those an earlier compaction wrote (see {@link
 *     CompactionOutputs})
 * @param compactedSmallBytes their total size
 * @param positionDeleteBytes total size of the live position delete files and deletion vectors
 * @param sharedPositionDeleteFiles of the position delete files (not deletion vectors), those that
 *     may delete rows of more than one data file (Iceberg's {@code referencedDataFile} is not known
 *     from their bounds), e.g. what a delete-file rewrite writes
 * @param deletionVectors of the position delete files, the deletion vectors (format v3)
 */
public record PartitionHealth(
    int specId,
    String path,
    List<Object> values,
    long dataFiles,
    long dataBytes,
    long smallDataFiles,
    long smallDataBytes,
    long positionDeleteFiles,
    long equalityDeleteFiles,
    long deleteFileBytes,
    long records,
    long compactedSmallFiles,
    long compactedSmallBytes,
    long positionDeleteBytes,
    long sharedPositionDeleteFiles,
    long deletionVectors) {

  public PartitionHealth {
    requireNonNull(path, "path is null");
    values =
        Collections.unmodifiableList(new ArrayList<>(requireNonNull(values, "values is null")));
  }

  /** Without the position delete details (as if every delete file referenced one data file). */
  public PartitionHealth(
      int specId,
      String path,
      List<Object> values,
      long dataFiles,
      long dataBytes,
      long smallDataFiles,
      long smallDataBytes,
      long positionDeleteFiles,
      long equalityDeleteFiles,
      long deleteFileBytes,
      long records,
      long compactedSmallFiles,
      long compactedSmallBytes) {
    this(
        specId,
        path,
        values,
        dataFiles,
        dataBytes,
        smallDataFiles,
        smallDataBytes,
        positionDeleteFiles,
        equalityDeleteFiles,
        deleteFileBytes,
        records,
        compactedSmallFiles,
        compactedSmallBytes,
        equalityDeleteFiles == 0 ? deleteFileBytes : 0,
        0,
        0);
  }

  /** Small data files a writer (not a compaction) added. */
  public long freshSmallFiles() {
    return smallDataFiles - compactedSmallFiles;
  }

  /** Their total size. */
  public long freshSmallBytes() {
    return smallDataBytes - compactedSmallBytes;
  }

  public long deleteFiles() {
    return positionDeleteFiles + equalityDeleteFiles;
  }

  /**
   * Files a bin-pack compaction of this partition's small files would remove: the small files minus
   * the files their bytes need at the target size (at least one).
   */
  public long mergeableSmallFiles(long targetFileSizeBytes) {
    if (smallDataFiles < 2) {
      return 0;
    }
    long needed = Math.max(1, (smallDataBytes + targetFileSizeBytes - 1) / targetFileSizeBytes);
    return Math.max(0, smallDataFiles - needed);
  }

  /** The partition for humans: its path, or {@code (unpartitioned)}. */
  public String displayName() {
    return path.isEmpty() ? "(unpartitioned)" : path;
  }
}
