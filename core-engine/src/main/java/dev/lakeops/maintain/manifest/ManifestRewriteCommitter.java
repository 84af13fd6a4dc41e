package dev.lakeops.maintain.manifest;

import static java.util.Objects.requireNonNull;

import dev.lakeops.unit.ByteSize;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.exceptions.CommitStateUnknownException;

/**
 * Commits Iceberg's {@code RewriteManifests}, clustered by partition, in one transaction. A target
 * manifest size for this run is set as {@code commit.manifest.target-size-bytes} inside the
 * transaction and restored before it commits, so the table's property never changes.
 */
final class ManifestRewriteCommitter {
  private final Table table;

  ManifestRewriteCommitter(Table table) {
    this.table = requireNonNull(table, "table is null");
  }

  void commit(Predicate<ManifestFile> eligible, Optional<ByteSize> targetManifestSize) {
    Map<Integer, PartitionSpec> specs = table.specs();
    String previous = table.properties().get(TableProperties.MANIFEST_TARGET_SIZE_BYTES);
    Transaction transaction = table.newTransaction();
    targetManifestSize.ifPresent(
        size ->
            transaction.updateProperties()
                .set(TableProperties.MANIFEST_TARGET_SIZE_BYTES, String.valueOf(size.bytes()))
                .commit());
    transaction.rewriteManifests()
        .clusterBy(file -> clusterKey(specs, file))
        .rewriteIf(eligible::test)
        .commit();
    if (targetManifestSize.isPresent()) {
      if (previous == null) {
        transaction.updateProperties().remove(TableProperties.MANIFEST_TARGET_SIZE_BYTES).commit();
      } else {
        transaction.updateProperties().set(TableProperties.MANIFEST_TARGET_SIZE_BYTES, previous).commit();
      }
    }
    try {
      transaction.commitTransaction();
    } catch (CommitStateUnknownException e) {
      throw new IllegalStateException(
          "The manifest rewrite of " + table.name() + " may or may not have been committed; check the table's "
              + "latest snapshot before running it again",
          e);
    }
  }

  private static String clusterKey(Map<Integer, PartitionSpec> specs, DataFile file) {
    PartitionSpec spec = specs.get(file.specId());
    return file.specId() + "/" + (spec == null || spec.isUnpartitioned() ? "" : spec.partitionToPath(file.partition()));
  }
}
