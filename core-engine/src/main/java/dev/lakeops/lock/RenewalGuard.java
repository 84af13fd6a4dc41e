package dev.lakeops.lock;

import java.util.function.Supplier;
import org.apache.iceberg.Transaction;

/**
 * Keeps a lock holder's lease renewals out of the way of its own commits. A renewal is a metadata
 * commit too: landing between a compaction commit's refresh and its compare-and-set, it would make
 * Iceberg fail that commit and retry it (with a warning and a stack trace). The compaction runs
 * each of its commits through {@link #withoutRenewal}, and the renewal waits for it.
 */
@FunctionalInterface
public interface RenewalGuard {
  /** No lease to renew (a dry run): runs the commit as it is. */
  RenewalGuard NONE = Supplier::get;

  /** Runs {@code commit} while no lease renewal of this holder commits to the table. */
  <T> T withoutRenewal(Supplier<T> commit);

  /**
   * Whether the lease lives in the table's properties, so that the run's last commit should be a
   * {@link Transaction} that {@link #commitReleasing} completes with the lease's release.
   */
  default boolean releasesInLastCommit() {
    return false;
  }

  /**
   * Commits {@code transaction}, the run's last table commit, while no renewal commits. A lease
   * kept in the table's properties is removed in the same transaction: its release adds no metadata
   * version of its own, and the lease is not renewed after it.
   */
  default void commitReleasing(Transaction transaction) {
    withoutRenewal(transaction::commitTransaction);
  }

  /** {@link #withoutRenewal(Supplier)} for a commit without a result. */
  default void withoutRenewal(Runnable commit) {
    withoutRenewal(
        () -> {
          commit.run();
          return null;
        });
  }
}
