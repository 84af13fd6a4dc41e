package dev.lakeops.maintain.orphan;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * What orphan removal found and did.
 *
 * @param table the table's full name
 * @param location the directory that was listed
 * @param cutoff files written at or after this instant were never candidates
 * @param listedFiles files found under the location (hidden files excluded)
 * @param referencedFiles distinct locations the table's metadata reaches
 * @param tooNewFiles unreferenced files kept because they are newer than the cutoff
 * @param prefixMismatches files kept or deleted because only their scheme or authority differed
 * @param orphanFiles the orphans, deleted unless this was a dry run
 * @param deletedFiles orphans deleted
 * @param failedDeletes orphans that could not be deleted
 * @param elapsed wall time
 * @param dryRun whether nothing was deleted
 */
public record OrphanRemovalResult(
    String table,
    String location,
    Instant cutoff,
    long listedFiles,
    long referencedFiles,
    long tooNewFiles,
    long prefixMismatches,
    List<String> orphanFiles,
    long deletedFiles,
    long failedDeletes,
    Duration elapsed,
    boolean dryRun) {
  public OrphanRemovalResult {
    requireNonNull(table, "table is null");
    requireNonNull(location, "location is null");
    requireNonNull(cutoff, "cutoff is null");
    orphanFiles = List.copyOf(requireNonNull(orphanFiles, "orphanFiles is null"));
    requireNonNull(elapsed, "elapsed is null");
  }
}
