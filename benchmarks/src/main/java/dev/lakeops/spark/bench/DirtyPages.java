package dev.lakeops.spark.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Writes the kernel's dirty pages to disk before a phase starts. Copying a 2 GB table leaves
 * gigabytes waiting in the page cache; the kernel writes them back while the next phase runs and
 * throttles that phase's own writes, so whichever engine runs first would pay for the copies.
 *
 * <p>{@link #dropPageCache} then empties the page cache, so that no phase finds the table's files
 * already in memory because the copy before it just wrote them (each phase reads its copy from
 * disk).
 */
final class DirtyPages {
  private static final Path DROP_CACHES = Path.of("/proc/sys/vm/drop_caches");
  private static final AtomicBoolean FAILURE_LOGGED = new AtomicBoolean();

  private DirtyPages() {}

  /**
   * Writes "3" to {@code /proc/sys/vm/drop_caches} (page cache, dentries and inodes; needs root and
   * a writable /proc/sys), after {@link #flush} so that only clean pages are there to drop. Returns
   * whether the cache was dropped; the first failure is logged.
   */
  static boolean dropPageCache() {
    try {
      Files.writeString(DROP_CACHES, "3");
      return true;
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      if (FAILURE_LOGGED.compareAndSet(false, true)) {
        SideBySideBenchmark.log(
            "page cache not dropped before the phases (writing 3 to %s: %s)", DROP_CACHES, e);
      }
      return false;
    }
  }

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
