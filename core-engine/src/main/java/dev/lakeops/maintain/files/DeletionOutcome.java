package dev.lakeops.maintain.files;

/**
 * What a {@link BatchDeleter} did.
 *
 * @param deleted files deleted (or already gone)
 * @param failed files that could not be deleted; they stay and a later run retries them
 */
public record DeletionOutcome(long deleted, long failed) {
  public static final DeletionOutcome NONE = new DeletionOutcome(0, 0);

  public DeletionOutcome plus(DeletionOutcome other) {
    return new DeletionOutcome(deleted + other.deleted, failed + other.failed);
  }
}
