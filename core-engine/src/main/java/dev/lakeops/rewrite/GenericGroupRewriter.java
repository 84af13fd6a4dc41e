package dev.lakeops.rewrite;

import static java.util.Objects.requireNonNull;

import dev.lakeops.plan.FileGroup;
import dev.lakeops.verify.RowHasher;
import dev.lakeops.verify.RowTally;
import dev.lakeops.verify.VerificationMode;
import dev.lakeops.verify.WriterFaults;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.parquet.Parquet;

/**
 * The general rewrite path: decodes live rows (deletes applied, schema evolved) and encodes them
 * into files of the target size with the table's Parquet properties and metrics config. Its heap
 * needs (the reader's largest input row group, the writer's row group and page buffers) are
 * reserved from the group's share of the memory budget before it starts; the writer's row groups
 * are made smaller than the table's when the share calls for it.
 */
public final class GenericGroupRewriter implements GroupRewriteStage {
  private final Table table;
  private final Schema writeSchema;
  private final long targetFileSizeBytes;
  private final OutputFileFactory outputFiles;
  private static final long MIN_ROW_GROUP_BYTES = 1L << 20;
  private static final long PAGE_WORK_BYTES = 8L << 20;

  private final LiveRowReader reader;
  private final long tableRowGroupBytes;
  private final VerificationMode verification;

  public GenericGroupRewriter(
      Table table, long targetFileSizeBytes, OutputFileFactory outputFiles) {
    this(table, targetFileSizeBytes, outputFiles, VerificationMode.COUNTS);
  }

  /** A rewriter that counts rows, and checksums them in {@code checksum} mode, for verification. */
  public GenericGroupRewriter(
      Table table,
      long targetFileSizeBytes,
      OutputFileFactory outputFiles,
      VerificationMode verification) {
    this.verification = requireNonNull(verification, "verification is null");
    this.table = requireNonNull(table, "table is null");
    this.tableRowGroupBytes = ParquetWriteSettings.of(table).rowGroupSizeBytes();
    this.writeSchema = WriteSchemas.forTable(table);
    this.targetFileSizeBytes = targetFileSizeBytes;
    this.outputFiles = requireNonNull(outputFiles, "outputFiles is null");
    this.reader = new LiveRowReader(table, writeSchema);
  }

  @Override
  public RewrittenGroup rewrite(FileGroup group, BufferAllocator groupAllocator) {
    long inputRowGroupBytes = InputRowGroupSizes.largestRowGroupBytes(group.tasks());
    try (BufferAllocator allocator =
        GroupRewriteStage.stageAllocator(groupAllocator, "generic-decode")) {
      long rowGroupBytes =
          Math.max(
              MIN_ROW_GROUP_BYTES,
              Math.min(
                  tableRowGroupBytes, allocator.getLimit() - inputRowGroupBytes - PAGE_WORK_BYTES));
      try (DecodeReservation reservation =
          DecodeReservation.take(
              allocator, group, inputRowGroupBytes, rowGroupBytes + PAGE_WORK_BYTES)) {
        return rewrite(group, rowGroupBytes);
      }
    }
  }

  private RewrittenGroup rewrite(FileGroup group, long rowGroupBytes) {
    List<DataFile> written = new ArrayList<>();
    RollingWriter writer = new RollingWriter(group, rowGroupBytes);
    RowTally tally = new RowTally(verification);
    RowHasher hasher = new RowHasher(writeSchema.asStruct());
    long liveRows = 0;
    try {
      for (FileScanTask task : group.tasks()) {
        try (LiveRowReader.Rows rows = reader.openRows(task)) {
          while (rows.hasNext()) {
            Record row = rows.next();
            if (tally.checksummed()) {
              tally.addReadChecksum(hasher.hash(row));
            }
            Optional<Record> handed =
                WriterFaults.active() ? WriterFaults.apply(row, liveRows) : Optional.of(row);
            liveRows++;
            if (handed.isPresent()) {
              writer.write(handed.get());
              tally.written(1);
              if (tally.checksummed()) {
                tally.addWriteChecksum(hasher.hash(handed.get()));
              }
            }
          }
          tally.read(rows.rowsRead(), rows.rowsDeleted());
        } catch (IOException e) {
          throw new UncheckedIOException("Cannot read data file " + task.file().location(), e);
        }
      }
      writer.finish(written);
      return new RewrittenGroup(group, written, 0, group.inputBytes(), tally.account());
    } catch (RuntimeException e) {
      writer.abort();
      OutputCleaner.deleteQuietly(table.io(), written, e);
      throw e;
    }
  }

  /** Writes rows to one file after another, starting a new file at the target size. */
  private final class RollingWriter {
    private final FileGroup group;
    private final PartitionSpec spec;
    private final long rowGroupBytes;
    private DataWriter<Record> current;
    private long rowsInCurrent;
    private final List<DataFile> finished = new ArrayList<>();

    private RollingWriter(FileGroup group, long rowGroupBytes) {
      this.group = group;
      this.rowGroupBytes = rowGroupBytes;
      this.spec = table.specs().get(group.specId());
    }

    void write(Record row) {
      if (current == null) {
        current = open();
      }
      current.write(row);
      rowsInCurrent++;
      if (rowsInCurrent % 1000 == 0 && current.length() >= targetFileSizeBytes) {
        closeCurrent();
      }
    }

    void finish(List<DataFile> into) {
      closeCurrent();
      into.addAll(finished);
    }

    void abort() {
      if (current != null) {
        try {
          current.close();
        } catch (IOException | RuntimeException ignored) {
          // the file is deleted below; a close failure changes nothing
        }
        finished.add(current.toDataFile());
        current = null;
      }
      OutputCleaner.deleteQuietly(table.io(), finished, null);
    }

    private DataWriter<Record> open() {
      try {
        return Parquet.writeData(
                OutputFileNames.newOutputFile(outputFiles, spec, group.partition()))
            .forTable(table)
            .schema(writeSchema)
            .withSpec(spec)
            .withPartition(group.partition())
            .createWriterFunc(GenericParquetWriter::create)
            .set(TableProperties.PARQUET_ROW_GROUP_SIZE_BYTES, String.valueOf(rowGroupBytes))
            .overwrite()
            .build();
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot create a data file for table " + table.name(), e);
      }
    }

    private void closeCurrent() {
      if (current == null) {
        return;
      }
      try {
        current.close();
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot close a data file of table " + table.name(), e);
      }
      finished.add(current.toDataFile());
      current = null;
      rowsInCurrent = 0;
    }
  }
}
