package dev.lakeops.spark.bench;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Writes the kernel's dirty pages to disk before a phase starts. Copying a 2 GB table leaves
 * gigabytes waiting in the page cache; the kernel writes them back while the next phase runs and
 * throttles that phase's own writes, so whichever engine runs first would pay for the copies.
 */
final class DirtyPages {
  private DirtyPages() {}

  static void flush() {
    try {
      Process sync = new ProcessBuilder("sync").inheritIO().start();
      if (sync.waitFor() != 0) {
        throw new IllegalStateException("sync exited with " + sync.exitValue());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot run sync before a benchmark phase", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while running sync", e);
    }
  }
}
