package dev.lakeops.testing;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.Files;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.parquet.Parquet;

/** Every row of a Parquet file, read by Iceberg's generic reader (parquet-java underneath). */
public final class ParquetRecords {
  private ParquetRecords() {}

  public static List<Record> read(File file, Schema schema) {
    try (CloseableIterable<Record> reader =
        Parquet.read(Files.localInput(file))
            .project(schema)
            .createReaderFunc(fileSchema -> GenericParquetReaders.buildReader(schema, fileSchema))
            .build()) {
      List<Record> rows = new ArrayList<>();
      reader.forEach(rows::add);
      return rows;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
