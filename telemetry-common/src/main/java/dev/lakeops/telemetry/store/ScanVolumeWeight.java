package dev.lakeops.telemetry.store;

import dev.lakeops.telemetry.event.ScanVolume;

/**
 * Turns the volume a query scanned into a weight. The weight grows with the logarithm of the
 * volume, so a scan of 1 TiB counts about twice a scan of 1 GiB rather than a thousand times:
 * {@code 1 + log2(1 + bytes / 1 MiB)}, or {@code 1 + log2(1 + rows / 10,000)} when only rows are
 * known, or {@code 1} when neither is.
 */
public final class ScanVolumeWeight {
  /** Bytes that count as one unit of volume. */
  public static final long BYTES_PER_UNIT = 1L << 20;

  /** Rows that count as one unit of volume when bytes are unknown. */
  public static final long ROWS_PER_UNIT = 10_000;

  private ScanVolumeWeight() {}

  public static double of(ScanVolume volume) {
    if (volume.bytes().isPresent()) {
      return logarithmic(volume.bytes().getAsLong() / (double) BYTES_PER_UNIT);
    }
    if (volume.rows().isPresent()) {
      return logarithmic(volume.rows().getAsLong() / (double) ROWS_PER_UNIT);
    }
    return 1.0;
  }

  private static double logarithmic(double units) {
    return 1.0 + Math.log1p(units) / Math.log(2);
  }
}
