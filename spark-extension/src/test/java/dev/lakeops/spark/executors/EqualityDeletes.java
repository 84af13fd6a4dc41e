package dev.lakeops.spark.executors;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.parquet.Parquet;

/** Commits an equality delete file with Iceberg's own writer (Spark SQL writes none). */
final class EqualityDeletes {
  private EqualityDeletes() {}

  /**
   * Deletes rows whose {@code id} is one of {@code ids} from the {@code country} partition of
   * {@code db.<name>}.
   */
  static DeleteFile deleteIds(Path warehouse, String name, String country, long... ids) {
    Table table =
        new HadoopCatalog(new Configuration(), warehouse.toString())
            .loadTable(TableIdentifier.of("db", name));
    Record partitionRow = GenericRecord.create(table.schema());
    partitionRow.setField("country", country);
    PartitionKey partition = new PartitionKey(table.spec(), table.schema());
    partition.partition(partitionRow);
    Schema deleteSchema = table.schema().select("id");
    OutputFileFactory outputs =
        OutputFileFactory.builderFor(table, 1, 1).format(FileFormat.PARQUET).build();
    try (EqualityDeleteWriter<Record> writer =
        Parquet.writeDeletes(outputs.newOutputFile(table.spec(), partition))
            .forTable(table)
            .withSpec(table.spec())
            .withPartition(partition)
            .rowSchema(deleteSchema)
            .equalityFieldIds(table.schema().findField("id").fieldId())
            .createWriterFunc(GenericParquetWriter::create)
            .overwrite()
            .buildEqualityWriter()) {
      for (long id : ids) {
        GenericRecord row = GenericRecord.create(deleteSchema);
        row.setField("id", id);
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
