package dev.lakeops.verify;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.avro.Avro;
import org.apache.iceberg.data.DeleteFilter;
import org.apache.iceberg.data.GenericDeleteFilter;
import org.apache.iceberg.data.IdentityPartitionConverters;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.avro.PlannedDataReader;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.util.PartitionUtil;
import org.apache.parquet.hadoop.ParquetInputFormat;

/**
 * Reads the live rows of one Parquet or Avro data file as Iceberg's generic reader does (the
 * table's schema, every delete file of the task applied, partition values filled in) and
 * fingerprints them. Records are reused between rows: each is hashed before the next is read.
 */
final class LiveRecordReader {
  private final Table table;
  private final Schema schema;
  private final RowHasher hasher;

  LiveRecordReader(Table table) {
    this.table = requireNonNull(table, "table is null");
    this.schema = table.schema();
    this.hasher = new RowHasher(schema.asStruct());
  }

  RowFingerprint fingerprint(FileScanTask task) {
    DeleteFilter<Record> deletes = new GenericDeleteFilter(table.io(), task, schema, schema);
    long count = 0;
    long checksum = 0;
    try (CloseableIterable<Record> rows = deletes.filter(open(task, deletes.requiredSchema()))) {
      for (Record row : rows) {
        checksum += hasher.hash(row);
        count++;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + task.file().location(), e);
    }
    return new RowFingerprint(count, checksum);
  }

  private CloseableIterable<Record> open(FileScanTask task, Schema readSchema) {
    InputFile input = table.io().newInputFile(task.file());
    Map<Integer, ?> constants =
        PartitionUtil.constantsMap(task, IdentityPartitionConverters::convertConstant);
    return switch (task.file().format()) {
      case PARQUET ->
          Parquet.read(input)
              .project(readSchema)
              .set(ParquetInputFormat.HADOOP_VECTORED_IO_ENABLED, "false")
              .createReaderFunc(
                  fileSchema ->
                      GenericParquetReaders.buildReader(readSchema, fileSchema, constants))
              .split(task.start(), task.length())
              .reuseContainers()
              .build();
      case AVRO ->
          Avro.read(input)
              .project(readSchema)
              .createResolvingReader(fileSchema -> PlannedDataReader.create(readSchema, constants))
              .split(task.start(), task.length())
              .reuseContainers()
              .build();
      default ->
          throw new UnsupportedOperationException(
              "Cannot read " + task.file().format() + " data file " + task.file().location());
    };
  }
}
