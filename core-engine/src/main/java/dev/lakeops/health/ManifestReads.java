package dev.lakeops.health;

import java.util.concurrent.atomic.LongAdder;

/**
 * Counts the manifest files health evaluations open (manifest lists are not counted). One counter
 * may be shared by every tracker of a process, from any thread: {@code serve} reports it per
 * evaluation cycle, and tests assert that an unchanged table costs no manifest read.
 */
public final class ManifestReads {
  private final LongAdder reads = new LongAdder();

  /** Records {@code count} manifests opened. */
  public void add(long count) {
    if (count < 0) {
      throw new IllegalArgumentException("count must not be negative, got " + count);
    }
    reads.add(count);
  }

  /** Manifests opened so far. */
  public long total() {
    return reads.sum();
  }
}
