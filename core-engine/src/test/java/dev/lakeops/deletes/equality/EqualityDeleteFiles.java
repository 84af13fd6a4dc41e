package dev.lakeops.deletes.equality;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.LongFunction;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.parquet.Parquet;

/** Writes and commits large equality delete files with Iceberg's own writer, for tests. */
public final class EqualityDeleteFiles {
  private static long taskId = 5000;

  private EqualityDeleteFiles() {}

  /** Deletes every row whose {@code column} equals {@code value(i)} for {@code i} in [0, count). */
  public static DeleteFile commit(
      Table table, StructLike partition, String column, long count, LongFunction<Object> value) {
    Schema deleteSchema = table.schema().select(column);
    OutputFileFactory outputs =
        OutputFileFactory.builderFor(table, 9, nextTaskId()).format(FileFormat.PARQUET).build();
    EqualityDeleteWriter<Record> writer;
    try {
      writer =
          Parquet.writeDeletes(outputs.newOutputFile(table.spec(), partition))
              .forTable(table)
              .withSpec(table.spec())
              .withPartition(partition)
              .rowSchema(deleteSchema)
              .equalityFieldIds(table.schema().findField(column).fieldId())
              .createWriterFunc(GenericParquetWriter::create)
              .overwrite()
              .buildEqualityWriter();
      try (writer) {
        GenericRecord row = GenericRecord.create(deleteSchema);
        for (long index = 0; index < count; index++) {
          row.setField(column, value.apply(index));
          writer.write(row);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    DeleteFile deleteFile = writer.toDeleteFile();
    table.newRowDelta().addDeletes(deleteFile).commit();
    return deleteFile;
  }

  /**
   * Deletes every row equal on {@code columns} to one of {@code count} rows made by {@code row}.
   */
  public static DeleteFile commitRows(
      Table table,
      StructLike partition,
      List<String> columns,
      long count,
      BiConsumer<Long, Record> row) {
    Schema deleteSchema = table.schema().select(columns);
    int[] fieldIds =
        columns.stream().mapToInt(column -> table.schema().findField(column).fieldId()).toArray();
    OutputFileFactory outputs =
        OutputFileFactory.builderFor(table, 9, nextTaskId()).format(FileFormat.PARQUET).build();
    EqualityDeleteWriter<Record> writer;
    try {
      writer =
          Parquet.writeDeletes(outputs.newOutputFile(table.spec(), partition))
              .forTable(table)
              .withSpec(table.spec())
              .withPartition(partition)
              .rowSchema(deleteSchema)
              .equalityFieldIds(fieldIds)
              .createWriterFunc(GenericParquetWriter::create)
              .overwrite()
              .buildEqualityWriter();
      try (writer) {
        for (long index = 0; index < count; index++) {
          GenericRecord record = GenericRecord.create(deleteSchema);
          row.accept(index, record);
          writer.write(record);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    DeleteFile deleteFile = writer.toDeleteFile();
    table.newRowDelta().addDeletes(deleteFile).commit();
    return deleteFile;
  }

  private static synchronized long nextTaskId() {
    return taskId++;
  }
}
