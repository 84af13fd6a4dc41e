package dev.lakeops.rewrite;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.util.Map;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.DeleteFilter;
import org.apache.iceberg.data.GenericDeleteFilter;
import org.apache.iceberg.data.IdentityPartitionConverters;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.CloseableIterator;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.util.PartitionUtil;

/**
 * Reads the live rows of one data file: projected onto the write schema (so added, renamed and
 * promoted columns read as the table sees them today) with every delete file that applies removed.
 */
public final class LiveRowReader {
  private final Table table;
  private final Schema writeSchema;

  public LiveRowReader(Table table, Schema writeSchema) {
    this.table = requireNonNull(table, "table is null");
    this.writeSchema = requireNonNull(writeSchema, "writeSchema is null");
  }

  public CloseableIterable<Record> open(FileScanTask task) {
    if (task.file().format() != FileFormat.PARQUET) {
      throw new UnsupportedOperationException(
          "Cannot rewrite " + task.file().format() + " data file " + task.file().location()
              + ": LakeOps rewrites Parquet data files only");
    }
    DeleteFilter<Record> deletes =
        new GenericDeleteFilter(table.io(), task, table.schema(), writeSchema);
    Schema readSchema = deletes.requiredSchema();
    InputFile input = table.io().newInputFile(task.file());
    Map<Integer, ?> constants =
        PartitionUtil.constantsMap(task, IdentityPartitionConverters::convertConstant);
    CloseableIterable<Record> rows =
        Parquet.read(input)
            .project(readSchema)
            .createReaderFunc(
                fileSchema -> GenericParquetReaders.buildReader(readSchema, fileSchema, constants))
            .build();
    return deletes.filter(rows);
  }

  /** Opens {@code task}'s live rows; read failures name the data file and leave the table as it was. */
  public Rows openRows(FileScanTask task) {
    try {
      CloseableIterable<Record> iterable = open(task);
      return new Rows(task.file().location(), iterable, iterable.iterator());
    } catch (UnsupportedOperationException e) {
      throw e;
    } catch (RuntimeException e) {
      throw UnreadableDataFileException.wrapIfRead(task.file().location(), e);
    }
  }

  /** An iterator over live rows whose read failures become {@link UnreadableDataFileException}. */
  public static final class Rows implements AutoCloseable {
    private final String location;
    private final CloseableIterable<Record> iterable;
    private final CloseableIterator<Record> iterator;

    private Rows(String location, CloseableIterable<Record> iterable, CloseableIterator<Record> iterator) {
      this.location = location;
      this.iterable = iterable;
      this.iterator = iterator;
    }

    public boolean hasNext() {
      try {
        return iterator.hasNext();
      } catch (RuntimeException e) {
        throw UnreadableDataFileException.wrapIfRead(location, e);
      }
    }

    public Record next() {
      try {
        return iterator.next();
      } catch (RuntimeException e) {
        throw UnreadableDataFileException.wrapIfRead(location, e);
      }
    }

    @Override
    public void close() throws IOException {
      try (CloseableIterable<Record> closingIterable = iterable) {
        iterator.close();
      }
    }
  }
}
