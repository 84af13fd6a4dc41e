package dev.lakeops.maintain.orphan;

import static java.util.Objects.requireNonNull;

import dev.lakeops.argument.InvalidArgumentException;
import dev.lakeops.operation.ContractDefaults;
import dev.lakeops.unit.TimeInput;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * What orphan removal may delete.
 *
 * @param olderThan only files last written longer ago than this are candidates (default 3 days)
 * @param location list this directory instead of the table location; must lie inside it
 * @param dryRun report the orphans, delete nothing
 * @param prefixMismatchMode what to do when a path matches but scheme or authority do not
 * @param equalSchemes schemes to treat as equal, e.g. {@code s3a,s3n -> s3} (the default)
 * @param equalAuthorities authorities to treat as equal, e.g. {@code bucket-alias -> bucket}
 * @param allowBelowSafetyFloor accept an {@code olderThan} under {@link #SAFETY_FLOOR} ({@code
 *     --force})
 * @param parallelism threads that list directories, read manifests and delete files
 */
public record OrphanRemovalOptions(
    Duration olderThan,
    Optional<String> location,
    boolean dryRun,
    PrefixMismatchMode prefixMismatchMode,
    Map<String, String> equalSchemes,
    Map<String, String> equalAuthorities,
    boolean allowBelowSafetyFloor,
    int parallelism) {
  /** Files younger than this may belong to a write still in progress. */
  public static final Duration SAFETY_FLOOR = ContractDefaults.ORPHAN_OLDER_THAN;

  public static final Duration DEFAULT_OLDER_THAN = SAFETY_FLOOR;
  public static final Map<String, String> DEFAULT_EQUAL_SCHEMES = ContractDefaults.EQUAL_SCHEMES;
  public static final int DEFAULT_PARALLELISM =
      Math.max(2, Runtime.getRuntime().availableProcessors());

  public OrphanRemovalOptions {
    requireNonNull(olderThan, "olderThan is null");
    requireNonNull(location, "location is null");
    requireNonNull(prefixMismatchMode, "prefixMismatchMode is null");
    equalSchemes = Map.copyOf(requireNonNull(equalSchemes, "equalSchemes is null"));
    equalAuthorities = Map.copyOf(requireNonNull(equalAuthorities, "equalAuthorities is null"));
    if (olderThan.isNegative()) {
      throw new InvalidArgumentException("{older_than} must not be negative, got " + olderThan);
    }
    if (olderThan.compareTo(SAFETY_FLOOR) < 0 && !allowBelowSafetyFloor) {
      throw new InvalidArgumentException(
          "{older_than} "
              + TimeInput.format(olderThan)
              + " is below the "
              + TimeInput.format(SAFETY_FLOOR)
              + " safety floor: files of writes still in progress could be deleted; use an older"
              + " cutoff (the command line's --force goes below it)");
    }
    if (parallelism < 1) {
      throw new IllegalArgumentException("Parallelism must be at least 1, got " + parallelism);
    }
  }

  /**
   * How long before {@code now} {@code cutoff} lies, for an {@code argument} that names a point in
   * time; refused under the safety floor, before anything runs.
   */
  public static Duration ageOf(Instant cutoff, Instant now, String argument) {
    Duration age = Duration.between(cutoff, now);
    if (age.compareTo(SAFETY_FLOOR) < 0) {
      throw new IllegalArgumentException(
          "Invalid argument "
              + argument
              + " => "
              + cutoff
              + ": files written in the last "
              + TimeInput.format(SAFETY_FLOOR)
              + " may belong to writes still in progress; use a timestamp at least that long ago");
    }
    return age;
  }

  public static OrphanRemovalOptions defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Builds options; every setter returns this builder. */
  public static final class Builder {
    private Duration olderThan = DEFAULT_OLDER_THAN;
    private Optional<String> location = Optional.empty();
    private boolean dryRun;
    private PrefixMismatchMode prefixMismatchMode = PrefixMismatchMode.ERROR;
    private Map<String, String> equalSchemes = DEFAULT_EQUAL_SCHEMES;
    private Map<String, String> equalAuthorities = Map.of();
    private boolean allowBelowSafetyFloor;
    private int parallelism = DEFAULT_PARALLELISM;

    private Builder() {}

    public Builder olderThan(Duration value) {
      this.olderThan = value;
      return this;
    }

    public Builder location(String value) {
      this.location = Optional.ofNullable(value).filter(text -> !text.isBlank());
      return this;
    }

    public Builder dryRun(boolean value) {
      this.dryRun = value;
      return this;
    }

    public Builder prefixMismatchMode(PrefixMismatchMode value) {
      this.prefixMismatchMode = value;
      return this;
    }

    public Builder equalSchemes(Map<String, String> value) {
      this.equalSchemes = value;
      return this;
    }

    public Builder equalAuthorities(Map<String, String> value) {
      this.equalAuthorities = value;
      return this;
    }

    public Builder allowBelowSafetyFloor(boolean value) {
      this.allowBelowSafetyFloor = value;
      return this;
    }

    public Builder parallelism(int value) {
      this.parallelism = value;
      return this;
    }

    public OrphanRemovalOptions build() {
      return new OrphanRemovalOptions(
          olderThan,
          location,
          dryRun,
          prefixMismatchMode,
          equalSchemes,
          equalAuthorities,
          allowBelowSafetyFloor,
          parallelism);
    }
  }
}
