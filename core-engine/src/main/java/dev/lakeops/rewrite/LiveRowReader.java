package dev.lakeops.rewrite;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.DeleteFilter;
import org.apache.iceberg.data.GenericDeleteFilter;
import org.apache.iceberg.data.IdentityPartitionConverters;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.CloseableIterator;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.PartitionUtil;
import org.apache.parquet.hadoop.ParquetInputFormat;

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
    return open(task, new AtomicLong());
  }

  /** {@link #open(FileScanTask)}, counting into {@code rowsRead} every row read before deletes. */
  private CloseableIterable<Record> open(FileScanTask task, AtomicLong rowsRead) {
    if (task.file().format() != FileFormat.PARQUET) {
      throw new UnsupportedOperationException(
          "Cannot rewrite "
              + task.file().format()
              + " data file "
              + task.file().location()
              + ": LakeOps rewrites Parquet data files only");
    }
    if (task instanceof EqualityResolvedTask resolved) {
      return openResolved(resolved, rowsRead);
    }
    DeleteFilter<Record> deletes =
        new GenericDeleteFilter(table.io(), task, table.schema(), writeSchema);
    return deletes.filter(counted(read(task, deletes.requiredSchema()), rowsRead));
  }

  /**
   * Reads a task whose equality deletes were resolved to positions: its remaining position deletes
   * and deletion vectors through Iceberg's filter, then the resolved positions.
   */
  private CloseableIterable<Record> openResolved(EqualityResolvedTask task, AtomicLong rowsRead) {
    Schema requested = writeSchema;
    if (writeSchema.findField(MetadataColumns.ROW_POSITION.fieldId()) == null) {
      List<Types.NestedField> columns = new ArrayList<>(writeSchema.columns());
      columns.add(MetadataColumns.ROW_POSITION);
      requested = new Schema(columns);
    }
    DeleteFilter<Record> deletes =
        new PositionOnlyDeleteFilter(table.io(), task, table.schema(), requested);
    Schema readSchema = deletes.requiredSchema();
    int position =
        readSchema.columns().indexOf(readSchema.findField(MetadataColumns.ROW_POSITION.fieldId()));
    PositionDeleteIndex deleted = task.equalityDeletedPositions();
    CloseableIterable<Record> rows = deletes.filter(counted(read(task, readSchema), rowsRead));
    return deleted.isEmpty()
        ? rows
        : CloseableIterable.filter(rows, row -> !deleted.isDeleted((Long) row.get(position)));
  }

  private static CloseableIterable<Record> counted(
      CloseableIterable<Record> rows, AtomicLong rowsRead) {
    return CloseableIterable.transform(
        rows,
        row -> {
          rowsRead.incrementAndGet();
          return row;
        });
  }

  private CloseableIterable<Record> read(FileScanTask task, Schema readSchema) {
    InputFile input = table.io().newInputFile(task.file());
    Map<Integer, ?> constants =
        PartitionUtil.constantsMap(task, IdentityPartitionConverters::convertConstant);
    CloseableIterable<Record> rows =
        Parquet.read(input)
            .project(readSchema)
            .set(ParquetInputFormat.HADOOP_VECTORED_IO_ENABLED, "false")
            .createReaderFunc(
                fileSchema -> GenericParquetReaders.buildReader(readSchema, fileSchema, constants))
            .build();
    return rows;
  }

  /** Iceberg's delete filter for a task that has position deletes and deletion vectors only. */
  private static final class PositionOnlyDeleteFilter extends DeleteFilter<Record> {
    private final FileIO io;

    private PositionOnlyDeleteFilter(
        FileIO io, FileScanTask task, Schema tableSchema, Schema requestedSchema) {
      super(task.file().location(), task.deletes(), tableSchema, requestedSchema);
      this.io = io;
    }

    @Override
    protected StructLike asStructLike(Record record) {
      return record;
    }

    @Override
    protected InputFile getInputFile(String location) {
      return io.newInputFile(location);
    }
  }

  /**
   * Opens {@code task}'s live rows; read failures name the data file and leave the table as it was.
   */
  public Rows openRows(FileScanTask task) {
    try {
      AtomicLong rowsRead = new AtomicLong();
      CloseableIterable<Record> iterable = open(task, rowsRead);
      return new Rows(task.file().location(), iterable, iterable.iterator(), rowsRead);
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
    private final AtomicLong rowsRead;
    private long liveRows;

    private Rows(
        String location,
        CloseableIterable<Record> iterable,
        CloseableIterator<Record> iterator,
        AtomicLong rowsRead) {
      this.location = location;
      this.iterable = iterable;
      this.iterator = iterator;
      this.rowsRead = rowsRead;
    }

    /** Rows read from the data file so far, deleted rows included. */
    public long rowsRead() {
      return rowsRead.get();
    }

    /** Rows read so far that deletes removed. */
    public long rowsDeleted() {
      return rowsRead.get() - liveRows;
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
        Record row = iterator.next();
        liveRows++;
        return row;
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
