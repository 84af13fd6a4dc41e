package dev.lakeops.observe;

import static java.util.Objects.requireNonNull;

import dev.lakeops.catalog.TableResolver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;
import java.util.stream.LongStream;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.util.PropertyUtil;

/**
 * Reads data file sizes from the catalog's tables (metadata only) and the policy from a resolver.
 */
public final class CatalogTableInspector implements TableInspector {
  private final TableResolver tables;
  private final Function<Table, List<PolicyValue>> policy;

  public CatalogTableInspector(Catalog catalog, Function<Table, List<PolicyValue>> policy) {
    this.tables = new TableResolver(requireNonNull(catalog, "catalog is null"));
    this.policy = requireNonNull(policy, "policy is null");
  }

  @Override
  public Optional<long[]> dataFileSizes(String table, OptionalLong snapshotId) {
    Optional<Table> loaded = load(table);
    if (loaded.isEmpty() || loaded.get().currentSnapshot() == null) {
      return loaded.map(found -> new long[0]);
    }
    if (snapshotId.isPresent() && loaded.get().snapshot(snapshotId.getAsLong()) == null) {
      return Optional.empty();
    }
    TableScan scan = loaded.get().newScan().ignoreResiduals();
    if (snapshotId.isPresent()) {
      scan = scan.useSnapshot(snapshotId.getAsLong());
    }
    try (CloseableIterable<FileScanTask> tasks = scan.planFiles()) {
      LongStream.Builder sizes = LongStream.builder();
      for (FileScanTask task : tasks) {
        sizes.add(task.file().fileSizeInBytes());
      }
      return Optional.of(sizes.build().toArray());
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list the data files of " + table, e);
    }
  }

  @Override
  public OptionalLong targetFileSizeBytes(String table) {
    return load(table)
        .map(
            found ->
                OptionalLong.of(
                    PropertyUtil.propertyAsLong(
                        found.properties(),
                        TableProperties.WRITE_TARGET_FILE_SIZE_BYTES,
                        TableProperties.WRITE_TARGET_FILE_SIZE_BYTES_DEFAULT)))
        .orElse(OptionalLong.empty());
  }

  @Override
  public List<PolicyValue> effectivePolicy(String table) {
    return load(table).map(policy).orElse(List.of());
  }

  private Optional<Table> load(String table) {
    try {
      return Optional.of(tables.load(table));
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }
}
