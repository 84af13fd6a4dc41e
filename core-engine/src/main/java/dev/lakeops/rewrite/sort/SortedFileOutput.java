package dev.lakeops.rewrite.sort;

import static java.util.Objects.requireNonNull;

import dev.lakeops.plan.FileGroup;
import dev.lakeops.rewrite.OutputFileNames;
import dev.lakeops.rewrite.ParquetWriteSettings;
import dev.lakeops.rewrite.arrow.ArrowParquetFileWriter;
import dev.lakeops.rewrite.arrow.ArrowSchemas;
import dev.lakeops.verify.BatchChecksum;
import dev.lakeops.verify.RowTally;
import dev.lakeops.verify.WriterFaults;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.MetricsConfig;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.Table;
import org.apache.iceberg.encryption.EncryptedOutputFile;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.parquet.ParquetUtil;

/**
 * Writes sorted rows of one file group into Parquet files of the target size, in order. Once a file
 * reaches the target it is closed where the leading sort value changes, so neighbouring files do
 * not share a value of the leading column; a file that grows past {@link #FORCED_ROLL_RATIO} times
 * the target is closed at once. Rows are gathered into a batch of the table's columns alone: the
 * sorted rows' key column (their last) is not copied, the files do not hold it. The group's {@link
 * ConstantColumns}, left out of the sort, are filled in as each batch is written.
 */
final class SortedFileOutput implements RowSink, AutoCloseable {
  static final int BATCH_ROWS = 2048;
  private static final double FORCED_ROLL_RATIO = 1.5;

  private final Table table;
  private final Schema writeSchema;
  private final ParquetWriteSettings settings;
  private final MetricsConfig metricsConfig;
  private final OutputFileFactory outputFiles;
  private final FileGroup group;
  private final PartitionSpec spec;
  private final Optional<SortOrder> recordedOrder;
  private final SortKeyEncoder encoder;
  private final long targetFileSizeBytes;
  private final BufferAllocator allocator;
  private final VectorSchemaRoot batch;
  private final ConstantColumnFill constantFill;
  private final RowGather gather;
  private final RowTally tally;
  private final BatchChecksum checksum = new BatchChecksum();
  private final List<DataFile> written = new ArrayList<>();
  private ArrowParquetFileWriter current;
  private EncryptedOutputFile currentFile;
  private boolean rollPending;
  private byte[] lastLeadingValue;
  private Set<String> plainColumns = Set.of();

  SortedFileOutput(
      Table table,
      Schema writeSchema,
      ConstantColumns constants,
      FileGroup group,
      OutputFileFactory outputFiles,
      Optional<SortOrder> recordedOrder,
      SortKeyEncoder encoder,
      long targetFileSizeBytes,
      OptionalLong rowGroupSizeBytes,
      BufferAllocator allocator,
      RowTally tally) {
    this.tally = requireNonNull(tally, "tally is null");
    this.table = requireNonNull(table, "table is null");
    this.writeSchema = requireNonNull(writeSchema, "writeSchema is null");
    ParquetWriteSettings tableSettings = ParquetWriteSettings.of(table);
    this.settings =
        rowGroupSizeBytes.isPresent()
            ? tableSettings.withRowGroupSizeBytes(rowGroupSizeBytes.getAsLong())
            : tableSettings;
    this.metricsConfig = MetricsConfig.forTable(table);
    this.group = requireNonNull(group, "group is null");
    this.spec = table.specs().get(group.specId());
    this.outputFiles = requireNonNull(outputFiles, "outputFiles is null");
    this.recordedOrder = requireNonNull(recordedOrder, "recordedOrder is null");
    this.encoder = requireNonNull(encoder, "encoder is null");
    this.targetFileSizeBytes = targetFileSizeBytes;
    this.allocator = requireNonNull(allocator, "allocator is null");
    this.batch =
        VectorSchemaRoot.create(
            ArrowSchemas.toArrow(constants.withoutConstants(writeSchema)), allocator);
    try {
      this.constantFill = new ConstantColumnFill(writeSchema, constants, batch, allocator);
    } catch (RuntimeException e) {
      batch.close();
      throw e;
    }
    this.gather = new RowGather(batch, BATCH_ROWS);
  }

  @Override
  public void append(SourceColumns source, int row) throws IOException {
    if (rollPending) {
      byte[] leading = encoder.leadingValue(source.batch(), row);
      if (leading == null || !Arrays.equals(leading, lastLeadingValue)) {
        writeBatch();
        closeCurrent();
      }
    }
    if (gather.add(source, row)) {
      writeBatch();
      checkSize();
    }
  }

  @Override
  public void sourcesChanging() {
    gather.copyPending();
  }

  /** Columns the files opened from now on write without trying a dictionary first. */
  void writePlain(Set<String> columns) {
    this.plainColumns = Set.copyOf(columns);
  }

  /** Writes the last rows and closes the last file; returns every file written, in order. */
  List<DataFile> finish() throws IOException {
    writeBatch();
    closeCurrent();
    return List.copyOf(written);
  }

  /** Files completed so far, for the caller to delete after a failure. */
  List<DataFile> written() {
    return List.copyOf(written);
  }

  /** Stops writing; the file in progress is deleted, completed files are the caller's to delete. */
  void abort() {
    if (current != null) {
      current.abort();
      try {
        table.io().deleteFile(currentFile.encryptingOutputFile().location());
      } catch (RuntimeException ignored) {
        // best effort: an unreferenced file is found by orphan cleanup later
      }
      current = null;
    }
  }

  @Override
  public void close() {
    abort();
    try (VectorSchemaRoot releasing = batch) {
      constantFill.close();
    }
  }

  private void writeBatch() throws IOException {
    if (gather.rows() == 0) {
      return;
    }
    gather.batch();
    // the sorted columns as handed to the writer: the constant columns are filled in below
    int columns = batch.getFieldVectors().size();
    WriterFaults.apply(batch, columns);
    tally.written(batch.getRowCount());
    if (tally.checksummed()) {
      tally.addWriteChecksum(checksum.of(batch, columns));
    }
    if (current == null) {
      currentFile = OutputFileNames.newOutputFile(outputFiles, spec, group.partition());
      current =
          new ArrowParquetFileWriter(
              writeSchema, settings, currentFile.encryptingOutputFile(), allocator, plainColumns);
    }
    current.write(constantFill.writeBatch());
    if (!rollPending && current.length() >= targetFileSizeBytes) {
      rollPending = true;
      lastLeadingValue = encoder.leadingValue(batch, batch.getRowCount() - 1);
    }
    gather.clear();
  }

  private void checkSize() throws IOException {
    if (current != null && current.length() >= targetFileSizeBytes * FORCED_ROLL_RATIO) {
      closeCurrent();
    }
  }

  private void closeCurrent() throws IOException {
    rollPending = false;
    lastLeadingValue = null;
    if (current == null) {
      return;
    }
    ArrowParquetFileWriter closing = current;
    current = null;
    closing.close();
    Metrics metrics = ParquetUtil.footerMetrics(closing.footer(), Stream.empty(), metricsConfig);
    DataFiles.Builder file =
        DataFiles.builder(spec)
            .withPath(currentFile.encryptingOutputFile().location())
            .withFormat(FileFormat.PARQUET)
            .withPartition(group.partition())
            .withFileSizeInBytes(closing.fileLength())
            .withMetrics(metrics)
            .withSplitOffsets(ParquetUtil.getSplitOffsets(closing.footer()))
            .withEncryptionKeyMetadata(currentFile.keyMetadata());
    recordedOrder.ifPresent(file::withSortOrder);
    written.add(file.build());
  }
}
