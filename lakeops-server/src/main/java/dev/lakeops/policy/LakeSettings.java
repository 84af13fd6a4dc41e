package dev.lakeops.policy;

import static java.util.Objects.requireNonNull;

import dev.lakeops.unit.ByteSize;
import java.util.Optional;

/**
 * The lake-wide settings of a policy file's {@code catalog:} section.
 *
 * @param maxConcurrentTables tables maintained at the same time ({@code max-concurrent-tables})
 * @param memory the total memory budget running jobs share ({@code memory})
 * @param maxBytesPerHour most bytes compactions may rewrite per hour; empty: no limit ({@code
 *     max-bytes-per-hour})
 */
public record LakeSettings(
    int maxConcurrentTables, ByteSize memory, Optional<ByteSize> maxBytesPerHour) {
  public LakeSettings {
    requireNonNull(memory, "memory is null");
    requireNonNull(maxBytesPerHour, "maxBytesPerHour is null");
    if (maxConcurrentTables < 1) {
      throw new IllegalArgumentException(
          "max-concurrent-tables must be at least 1, got " + maxConcurrentTables);
    }
  }
}
