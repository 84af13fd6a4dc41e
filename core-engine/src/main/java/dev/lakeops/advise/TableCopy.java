package dev.lakeops.advise;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;

/**
 * A metadata-only copy of a table's current snapshot in a local directory: a Hadoop path table with
 * the same schemas, partition specs, sort order, field ids and properties (minus write locations),
 * whose snapshot references the original data and delete files where they are. New files the copy
 * writes go under the directory; the original's files are only read.
 *
 * <p>The copy reads the original's files through Hadoop's file system, so it works for local, HDFS
 * and (configured) {@code s3a://} tables. Equality deletes are committed after all data files, so
 * they apply to every copied row: where the original has data files newer than an equality delete,
 * the copy may hide a few more rows.
 *
 * <p>Never drop the copy with purge: that would delete the original's files. Delete its directory.
 */
final class TableCopy {
  private static final Set<String> LOCATION_PROPERTIES =
      Set.of(
          TableProperties.WRITE_DATA_LOCATION,
          TableProperties.WRITE_METADATA_LOCATION,
          TableProperties.OBJECT_STORE_ENABLED,
          "write.object-storage.path",
          "write.folder-storage.path");

  private TableCopy() {}

  static Table create(Table original, Path directory) {
    requireNonNull(original, "original is null");
    requireNonNull(directory, "directory is null");
    if (!(original instanceof HasTableOperations withOperations)) {
      throw new IllegalArgumentException(
          "Cannot copy " + original.name() + ": not a metadata-backed table");
    }
    TableMetadata source = withOperations.operations().current();
    String location = directory.resolve("copy").toAbsolutePath().toString();
    HadoopTables tables = new HadoopTables(new Configuration());
    Table created =
        tables.create(
            new Schema(Types.NestedField.optional(1, "placeholder", Types.IntegerType.get())),
            PartitionSpec.unpartitioned(),
            location);
    TableOperations operations = ((HasTableOperations) created).operations();
    TableMetadata placeholder = operations.current();
    operations.commit(placeholder, copiedMetadata(source, location, placeholder.uuid()));
    Table copy = tables.load(location);
    if (!copy.schema().sameSchema(original.schema())
        || copy.spec().specId() != original.spec().specId()
        || !copy.spec().compatibleWith(original.spec())) {
      throw new IllegalStateException(
          "The copy of " + original.name() + " does not have its schema and partition spec");
    }
    copyFiles(original, copy);
    return copy;
  }

  private static TableMetadata copiedMetadata(TableMetadata source, String location, String uuid) {
    TableMetadata.Builder builder =
        TableMetadata.buildFromEmpty(source.formatVersion()).assignUUID(uuid).setLocation(location);
    source.schemas().forEach(builder::addSchema);
    builder.setCurrentSchema(source.currentSchemaId());
    source.specs().forEach(builder::addPartitionSpec);
    builder.setDefaultPartitionSpec(source.defaultSpecId());
    source.sortOrders().forEach(builder::addSortOrder);
    builder.setDefaultSortOrder(source.defaultSortOrderId());
    Map<String, String> properties = new LinkedHashMap<>(source.properties());
    properties.keySet().removeAll(LOCATION_PROPERTIES);
    builder.setProperties(properties);
    return builder.build();
  }

  private static void copyFiles(Table original, Table copy) {
    if (original.currentSnapshot() == null) {
      return;
    }
    Map<String, DeleteFile> deletes = new LinkedHashMap<>();
    AppendFiles append = copy.newAppend();
    try (CloseableIterable<FileScanTask> tasks =
        original.newScan().includeColumnStats().planFiles()) {
      for (FileScanTask task : tasks) {
        append.appendFile(task.file());
        task.deletes().forEach(delete -> deletes.putIfAbsent(delete.location(), delete));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the manifests of " + original.name(), e);
    }
    append.commit();
    if (!deletes.isEmpty()) {
      RowDelta delta = copy.newRowDelta();
      deletes.values().forEach(delta::addDeletes);
      delta.commit();
    }
  }
}
