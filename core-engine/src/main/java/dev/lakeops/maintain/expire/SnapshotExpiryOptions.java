package dev.lakeops.maintain.expire;

import static java.util.Objects.requireNonNull;

import dev.lakeops.argument.InvalidArgumentException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What to expire. Empty values fall back to the table's {@code history.expire.*} properties and
 * each ref's own {@code max-snapshot-age-ms}, {@code min-snapshots-to-keep} and {@code
 * max-ref-age-ms}, exactly as Iceberg's {@code ExpireSnapshots} does.
 *
 * @param olderThan expire snapshots older than this instant (default: now minus {@code
 *     history.expire.max-snapshot-age-ms}, 5 days)
 * @param retainLast keep at least this many ancestors of every branch (default: {@code
 *     history.expire.min-snapshots-to-keep}, 1)
 * @param snapshotIds expire exactly these snapshots too; each must exist and be no ref's head
 * @param cleanExpiredMetadata also drop partition specs no retained snapshot uses
 * @param dryRun report what would be expired and deleted, change nothing
 * @param parallelism threads that read manifests and delete files
 */
public record SnapshotExpiryOptions(
    Optional<Instant> olderThan,
    OptionalInt retainLast,
    List<Long> snapshotIds,
    boolean cleanExpiredMetadata,
    boolean dryRun,
    int parallelism) {
  public static final int DEFAULT_PARALLELISM =
      Math.max(2, Runtime.getRuntime().availableProcessors());

  public SnapshotExpiryOptions {
    requireNonNull(olderThan, "olderThan is null");
    requireNonNull(retainLast, "retainLast is null");
    snapshotIds = List.copyOf(requireNonNull(snapshotIds, "snapshotIds is null"));
    if (retainLast.isPresent() && retainLast.getAsInt() < 1) {
      throw new InvalidArgumentException(
          "Cannot retain "
              + retainLast.getAsInt()
              + " snapshots: every branch keeps at least its head; "
              + "use {retain_last} 1 or more");
    }
    if (parallelism < 1) {
      throw new IllegalArgumentException("Parallelism must be at least 1, got " + parallelism);
    }
  }

  /** The table's own retention settings, nothing else. */
  public static SnapshotExpiryOptions defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Builds options; every setter returns this builder. */
  public static final class Builder {
    private Optional<Instant> olderThan = Optional.empty();
    private OptionalInt retainLast = OptionalInt.empty();
    private List<Long> snapshotIds = List.of();
    private boolean cleanExpiredMetadata;
    private boolean dryRun;
    private int parallelism = DEFAULT_PARALLELISM;

    private Builder() {}

    public Builder olderThan(Instant value) {
      this.olderThan = Optional.of(value);
      return this;
    }

    public Builder retainLast(int value) {
      this.retainLast = OptionalInt.of(value);
      return this;
    }

    public Builder snapshotIds(List<Long> value) {
      this.snapshotIds = value;
      return this;
    }

    public Builder cleanExpiredMetadata(boolean value) {
      this.cleanExpiredMetadata = value;
      return this;
    }

    public Builder dryRun(boolean value) {
      this.dryRun = value;
      return this;
    }

    public Builder parallelism(int value) {
      this.parallelism = value;
      return this;
    }

    public SnapshotExpiryOptions build() {
      return new SnapshotExpiryOptions(
          olderThan, retainLast, snapshotIds, cleanExpiredMetadata, dryRun, parallelism);
    }
  }
}
