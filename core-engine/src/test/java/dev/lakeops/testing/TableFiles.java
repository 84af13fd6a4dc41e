package dev.lakeops.testing;

import dev.lakeops.rewrite.OutputFileNames;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.MetricsConfig;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.deletes.BaseDVFileWriter;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.parquet.Parquet;

/** Writes real data and delete files with Iceberg's own writers, for tests. */
public final class TableFiles {
  private static long taskId = 1000;

  private TableFiles() {}

  private static OutputFileFactory outputs(Table table) {
    return OutputFileFactory.builderFor(table, 7, nextTaskId()).format(FileFormat.PARQUET).build();
  }

  private static synchronized long nextTaskId() {
    return taskId++;
  }

  /** Writes {@code rows} into one data file of the table's current spec and appends it. */
  public static DataFile append(Table table, StructLike partition, List<Record> rows) {
    DataFile file = write(table, partition, rows);
    table.newAppend().appendFile(file).commit();
    return file;
  }

  public static DataFile write(Table table, StructLike partition, List<Record> rows) {
    try (DataWriter<Record> writer =
        Parquet.writeData(OutputFileNames.newOutputFile(outputs(table), table.spec(), partition))
            .forTable(table)
            .withSpec(table.spec())
            .withPartition(partition)
            .createWriterFunc(GenericParquetWriter::create)
            .overwrite()
            .build()) {
      rows.forEach(writer::write);
      writer.close();
      return writer.toDataFile();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Deletes rows at {@code positions} of {@code dataFile} with a position delete file (v2). */
  public static DeleteFile deletePositions(Table table, DataFile dataFile, long... positions) {
    try (PositionDeleteWriter<Record> writer =
        Parquet.writeDeletes(
                OutputFileNames.newOutputFile(
                    outputs(table), table.specs().get(dataFile.specId()), dataFile.partition()))
            .setAll(table.properties())
            .withSpec(table.specs().get(dataFile.specId()))
            .withPartition(dataFile.partition())
            .overwrite()
            .buildPositionWriter()) {
      PositionDelete<Record> delete = PositionDelete.create();
      for (long position : positions) {
        writer.write(delete.set(dataFile.location(), position, null));
      }
      writer.close();
      DeleteFile deleteFile = writer.toDeleteFile();
      table.newRowDelta().addDeletes(deleteFile).commit();
      return deleteFile;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Writes (does not commit) a position delete file for {@code positions} of {@code dataFile}, with
   * full {@code file_path} metrics as Iceberg's engines write them, so it is scoped to that file.
   */
  public static DeleteFile writePositionDeletes(Table table, DataFile dataFile, long... positions) {
    try (PositionDeleteWriter<Record> writer =
        Parquet.writeDeletes(
                OutputFileNames.newOutputFile(
                    outputs(table), table.specs().get(dataFile.specId()), dataFile.partition()))
            .setAll(table.properties())
            .metricsConfig(MetricsConfig.forPositionDelete(table))
            .withSpec(table.specs().get(dataFile.specId()))
            .withPartition(dataFile.partition())
            .overwrite()
            .buildPositionWriter()) {
      PositionDelete<Record> delete = PositionDelete.create();
      for (long position : positions) {
        writer.write(delete.set(dataFile.location(), position, null));
      }
      writer.close();
      return writer.toDeleteFile();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Deletes rows at {@code positions} of {@code dataFile} with a deletion vector (v3). */
  public static DeleteFile deletionVector(Table table, DataFile dataFile, long... positions) {
    BaseDVFileWriter writer = new BaseDVFileWriter(outputs(table), path -> null);
    try (writer) {
      for (long position : positions) {
        writer.delete(
            dataFile.location(),
            position,
            table.specs().get(dataFile.specId()),
            dataFile.partition());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    DeleteFile deleteFile = writer.result().deleteFiles().get(0);
    table.newRowDelta().addDeletes(deleteFile).commit();
    return deleteFile;
  }

  /** Deletes every row whose {@code column} equals one of {@code values} (equality deletes). */
  public static DeleteFile deleteEqual(
      Table table, StructLike partition, String column, Object... values) {
    Schema deleteSchema = table.schema().select(column);
    try (EqualityDeleteWriter<Record> writer =
        Parquet.writeDeletes(OutputFileNames.newOutputFile(outputs(table), table.spec(), partition))
            .forTable(table)
            .withSpec(table.spec())
            .withPartition(partition)
            .rowSchema(deleteSchema)
            .equalityFieldIds(table.schema().findField(column).fieldId())
            .createWriterFunc(GenericParquetWriter::create)
            .overwrite()
            .buildEqualityWriter()) {
      for (Object value : values) {
        GenericRecord row = GenericRecord.create(deleteSchema);
        row.setField(column, value);
        writer.write(row);
      }
      writer.close();
      DeleteFile deleteFile = writer.toDeleteFile();
      table.newRowDelta().addDeletes(deleteFile).commit();
      return deleteFile;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
