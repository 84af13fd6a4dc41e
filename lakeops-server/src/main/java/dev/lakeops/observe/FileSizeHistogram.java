package dev.lakeops.observe;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Data file sizes counted into power-of-two buckets: bucket {@code i} holds files of at most {@code
 * upperBytes[i]} bytes and more than the bucket before it. Two histograms built with the same
 * bounds line up bucket by bucket.
 *
 * @param upperBytes each bucket's upper bound in bytes, ascending
 * @param counts files per bucket
 */
public record FileSizeHistogram(List<Long> upperBytes, List<Long> counts) {
  /** The smallest upper bound used: files of a kilobyte or less share one bucket. */
  static final long SMALLEST_UPPER_BYTES = 1024;

  public FileSizeHistogram {
    upperBytes = List.copyOf(upperBytes);
    counts = List.copyOf(counts);
    if (upperBytes.size() != counts.size()) {
      throw new IllegalArgumentException(
          "Histogram needs one count per bucket: "
              + upperBytes.size()
              + " bounds, "
              + counts.size()
              + " counts");
    }
  }

  /** Power-of-two bounds from 1 KB up to the first that holds {@code largestBytes}. */
  public static List<Long> boundsUpTo(long largestBytes) {
    List<Long> bounds = new ArrayList<>();
    long bound = SMALLEST_UPPER_BYTES;
    bounds.add(bound);
    while (bound < largestBytes) {
      bound *= 2;
      bounds.add(bound);
    }
    return bounds;
  }

  /**
   * Counts {@code sizes} into {@code bounds}; sizes above the last bound go into the last bucket.
   */
  public static FileSizeHistogram of(List<Long> bounds, long[] sizes) {
    long[] counts = new long[bounds.size()];
    for (long size : sizes) {
      int bucket = 0;
      while (bucket < bounds.size() - 1 && size > bounds.get(bucket)) {
        bucket++;
      }
      counts[bucket]++;
    }
    return new FileSizeHistogram(bounds, Arrays.stream(counts).boxed().toList());
  }
}
