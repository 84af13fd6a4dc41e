package dev.lakeops.advise;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Random;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Types;

/**
 * An unpartitioned event table written by Iceberg's own Parquet writer, one file per hour of one
 * day: {@code ts} within the file's hour (in arrival order, or spread over the whole day when
 * {@code arrivalOrder} is false), {@code user_id} uniform over 0-99,999.
 */
public final class HourlyEventsTable {
  public static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "event_id", Types.LongType.get()),
          Types.NestedField.optional(2, "user_id", Types.LongType.get()),
          Types.NestedField.optional(3, "ts", Types.TimestampType.withZone()),
          Types.NestedField.optional(4, "amount", Types.DoubleType.get()));

  private HourlyEventsTable() {}

  public static Table create(
      Catalog catalog,
      TableIdentifier identifier,
      int rowsPerFile,
      long targetFileSize,
      boolean arrivalOrder) {
    Table table =
        catalog.createTable(
            identifier,
            SCHEMA,
            PartitionSpec.unpartitioned(),
            Map.of(
                TableProperties.FORMAT_VERSION,
                "2",
                TableProperties.WRITE_TARGET_FILE_SIZE_BYTES,
                String.valueOf(targetFileSize)));
    Random random = new Random(7);
    OutputFileFactory outputFiles =
        OutputFileFactory.builderFor(table, 1, 1).format(FileFormat.PARQUET).build();
    OffsetDateTime day = OffsetDateTime.of(2026, 11, 1, 0, 0, 0, 0, ZoneOffset.UTC);
    AppendFiles append = table.newAppend();
    long eventId = 0;
    for (int hour = 0; hour < 24; hour++) {
      try (DataWriter<Record> writer =
          Parquet.writeData(outputFiles.newOutputFile())
              .forTable(table)
              .withSpec(table.spec())
              .createWriterFunc(GenericParquetWriter::create)
              .overwrite()
              .build()) {
        for (int row = 0; row < rowsPerFile; row++) {
          GenericRecord record = GenericRecord.create(SCHEMA);
          record.setField("event_id", eventId++);
          record.setField("user_id", (long) random.nextInt(100_000));
          int second =
              arrivalOrder ? hour * 3600 + row * 3600 / rowsPerFile : random.nextInt(86_400);
          record.setField("ts", day.plusSeconds(second));
          record.setField("amount", random.nextInt(1_000_000) / 100.0);
          writer.write(record);
        }
        writer.close();
        append.appendFile(writer.toDataFile());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    append.commit();
    return table;
  }
}
