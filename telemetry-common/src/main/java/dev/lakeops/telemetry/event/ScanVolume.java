package dev.lakeops.telemetry.event;

import static java.util.Objects.requireNonNull;

import java.util.OptionalLong;

/**
 * How much data the engine scanned for a query, when it reports it.
 *
 * @param bytes bytes read from storage
 * @param rows rows read from storage
 */
public record ScanVolume(OptionalLong bytes, OptionalLong rows) {
  private static final ScanVolume UNKNOWN =
      new ScanVolume(OptionalLong.empty(), OptionalLong.empty());

  public ScanVolume {
    requireNonNull(bytes, "bytes is null");
    requireNonNull(rows, "rows is null");
    requireNotNegative(bytes, "bytes");
    requireNotNegative(rows, "rows");
  }

  public static ScanVolume unknown() {
    return UNKNOWN;
  }

  public static ScanVolume ofBytes(long bytes) {
    return new ScanVolume(OptionalLong.of(bytes), OptionalLong.empty());
  }

  public static ScanVolume ofRows(long rows) {
    return new ScanVolume(OptionalLong.empty(), OptionalLong.of(rows));
  }

  public static ScanVolume of(long bytes, long rows) {
    return new ScanVolume(OptionalLong.of(bytes), OptionalLong.of(rows));
  }

  private static void requireNotNegative(OptionalLong value, String name) {
    if (value.isPresent() && value.getAsLong() < 0) {
      throw new IllegalArgumentException(
          name + " scanned must not be negative: " + value.getAsLong());
    }
  }
}
