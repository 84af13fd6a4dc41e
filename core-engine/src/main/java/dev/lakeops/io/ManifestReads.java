package dev.lakeops.io;

import static java.util.Objects.requireNonNull;

import java.util.concurrent.ExecutorService;
import org.apache.iceberg.Scan;
import org.apache.iceberg.SnapshotUpdate;
import org.apache.iceberg.Table;
import org.apache.iceberg.util.ThreadPools;

/**
 * Scans and commits that read a table's manifests many at a time on an object store. Iceberg reads
 * them on its worker pool, one thread a core: enough on local disk, but on an object store each
 * manifest is a request of tens of milliseconds, and a table written by a stream has hundreds of
 * manifests.
 */
public final class ManifestReads {
  /** Manifests read at once on an object store. */
  static final int OBJECT_STORE_THREADS = 32;

  private ManifestReads() {}

  /** {@code scan}, planned on a wider pool when {@code table} lives in an object store. */
  public static <T extends Scan<T, ?, ?>> T planned(T scan, Table table) {
    requireNonNull(scan, "scan is null");
    requireNonNull(table, "table is null");
    if (!ObjectStoreLocations.isObjectStore(table.location())) {
      return scan;
    }
    return scan.planWith(Pool.INSTANCE);
  }

  /**
   * {@code update}, reading and rewriting the manifests it changes on a wider pool when {@code
   * table} lives in an object store.
   */
  public static <T extends SnapshotUpdate<T>> T scanned(T update, Table table) {
    requireNonNull(update, "update is null");
    requireNonNull(table, "table is null");
    if (!ObjectStoreLocations.isObjectStore(table.location())) {
      return update;
    }
    return update.scanManifestsWith(Pool.INSTANCE);
  }

  /** Created on first use: a process that never scans an object store starts no threads. */
  private static final class Pool {
    private static final ExecutorService INSTANCE =
        ThreadPools.newExitingWorkerPool("lakeops-manifest-read", OBJECT_STORE_THREADS);
  }
}
