package dev.lakeops.maintain.manifest;

import static java.util.Objects.requireNonNull;

import dev.lakeops.unit.ByteSize;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.exceptions.CommitStateUnknownException;

/**
 * Commits Iceberg's {@code RewriteManifests} in one transaction, packing the entries of each
 * partition spec into manifests of the target size (one cluster per spec: clustering by partition
 * would write at least one manifest per partition, more than a table usually has). A target
 * manifest size for this run is set as {@code commit.manifest.target-size-bytes} inside the
 * transaction and restored before it commits, so the table's property never changes.
 *
 * <p>The rewrite is staged first; when it would not leave fewer manifests than the snapshot has, it
 * is not committed, the manifests it wrote are deleted, and the reason is returned.
 */
final class ManifestRewriteCommitter {
  private final Table table;

  ManifestRewriteCommitter(Table table) {
    this.table = requireNonNull(table, "table is null");
  }

  /** Commits the rewrite, or returns why it was not committed. */
  Optional<String> commit(
      Predicate<ManifestFile> eligible,
      Optional<ByteSize> targetManifestSize,
      int manifestsBefore) {
    String previous = table.properties().get(TableProperties.MANIFEST_TARGET_SIZE_BYTES);
    Transaction transaction = table.newTransaction();
    targetManifestSize.ifPresent(
        size ->
            transaction
                .updateProperties()
                .set(TableProperties.MANIFEST_TARGET_SIZE_BYTES, String.valueOf(size.bytes()))
                .commit());
    transaction
        .rewriteManifests()
        .clusterBy(file -> file.specId())
        .rewriteIf(eligible::test)
        .commit();
    if (targetManifestSize.isPresent()) {
      if (previous == null) {
        transaction.updateProperties().remove(TableProperties.MANIFEST_TARGET_SIZE_BYTES).commit();
      } else {
        transaction
            .updateProperties()
            .set(TableProperties.MANIFEST_TARGET_SIZE_BYTES, previous)
            .commit();
      }
    }
    Snapshot staged = transaction.table().currentSnapshot();
    List<ManifestFile> after = staged.allManifests(transaction.table().io());
    if (after.size() >= manifestsBefore) {
      discard(staged, after);
      return Optional.of(
          "packing the manifests by size would leave "
              + after.size()
              + " where there are "
              + manifestsBefore
              + (targetManifestSize.isPresent()
                  ? " at the target size of " + targetManifestSize.get()
                  : "")
              + "; nothing was committed");
    }
    try {
      transaction.commitTransaction();
    } catch (CommitStateUnknownException e) {
      throw new IllegalStateException(
          "The manifest rewrite of "
              + table.name()
              + " may or may not have been committed; check the table's "
              + "latest snapshot before running it again",
          e);
    }
    return Optional.empty();
  }

  /** Deletes what staging wrote: the new manifests and the staged snapshot's manifest list. */
  private void discard(Snapshot staged, List<ManifestFile> manifests) {
    for (ManifestFile manifest : manifests) {
      if (manifest.snapshotId() != null && manifest.snapshotId() == staged.snapshotId()) {
        table.io().deleteFile(manifest.path());
      }
    }
    if (staged.manifestListLocation() != null) {
      table.io().deleteFile(staged.manifestListLocation());
    }
  }
}
