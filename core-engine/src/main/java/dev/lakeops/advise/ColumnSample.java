package dev.lakeops.advise;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Types;
import org.apache.parquet.hadoop.ParquetInputFormat;

/**
 * The values of a few columns of a table, per partition, read from a sample of its Parquet data
 * files: in each partition every k-th file (by path), k chosen so that about {@value #MAXIMUM_ROWS}
 * rows are read in all, and at least one file per partition. Values are Iceberg's internal ones
 * (timestamps as microseconds, dates as days), as column metrics hold them. Delete files are not
 * applied: a sample only estimates value distributions.
 */
final class ColumnSample {
  /** Rows read at most, roughly: whole files are read, every k-th one. */
  static final long MAXIMUM_ROWS = 200_000;

  private final List<Types.NestedField> fields;
  private final List<PartitionSample> partitions;

  private ColumnSample(List<Types.NestedField> fields, List<PartitionSample> partitions) {
    this.fields = List.copyOf(fields);
    this.partitions = List.copyOf(partitions);
  }

  /**
   * The rows of one partition that were read, and the size of all its data files.
   *
   * @param bytes the partition's data file bytes, sampled or not
   * @param rows one value per sampled column, in {@link #fields()} order
   */
  record PartitionSample(long bytes, List<Object[]> rows) {
    PartitionSample {
      rows = List.copyOf(rows);
    }
  }

  static ColumnSample read(Table table, List<Types.NestedField> fields) {
    requireNonNull(table, "table is null");
    requireNonNull(fields, "fields is null");
    Map<String, List<DataFile>> filesByPartition = new LinkedHashMap<>();
    long totalRows = 0;
    if (table.currentSnapshot() != null) {
      try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
        for (FileScanTask task : tasks) {
          DataFile file = task.file();
          String partition =
              file.specId()
                  + "/"
                  + table.specs().get(file.specId()).partitionToPath(file.partition());
          filesByPartition.computeIfAbsent(partition, key -> new ArrayList<>()).add(file);
          totalRows += file.recordCount();
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot plan a scan of " + table.name(), e);
      }
    }
    long stride = Math.max(1, (totalRows + MAXIMUM_ROWS - 1) / MAXIMUM_ROWS);
    Schema projected = new Schema(fields);
    List<PartitionSample> partitions = new ArrayList<>();
    for (List<DataFile> files : filesByPartition.values()) {
      files.sort(Comparator.comparing(DataFile::location));
      long bytes = files.stream().mapToLong(DataFile::fileSizeInBytes).sum();
      List<Object[]> rows = new ArrayList<>();
      for (int index = 0;
          index < files.size();
          index += (int) Math.min(stride, Integer.MAX_VALUE)) {
        if (files.get(index).format() == FileFormat.PARQUET) {
          readFile(table, projected, files.get(index), rows);
        }
      }
      partitions.add(new PartitionSample(bytes, rows));
    }
    return new ColumnSample(fields, partitions);
  }

  private static void readFile(Table table, Schema projected, DataFile file, List<Object[]> rows) {
    InternalRecordWrapper internal = new InternalRecordWrapper(projected.asStruct());
    int width = projected.columns().size();
    try (CloseableIterable<Record> records =
        Parquet.read(table.io().newInputFile(file.location()))
            .project(projected)
            .set(ParquetInputFormat.HADOOP_VECTORED_IO_ENABLED, "false")
            .createReaderFunc(
                fileSchema -> GenericParquetReaders.buildReader(projected, fileSchema))
            .build()) {
      for (Record record : records) {
        InternalRecordWrapper wrapped = internal.wrap(record);
        Object[] row = new Object[width];
        for (int column = 0; column < width; column++) {
          row[column] = wrapped.get(column, Object.class);
        }
        rows.add(row);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read a sample of " + file.location(), e);
    }
  }

  List<Types.NestedField> fields() {
    return fields;
  }

  List<PartitionSample> partitions() {
    return partitions;
  }
}
