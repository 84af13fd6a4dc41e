package dev.lakeops.rewrite.sort;

import static java.util.Objects.requireNonNull;

import dev.lakeops.plan.FileGroup;
import dev.lakeops.rewrite.OutputFileNames;
import dev.lakeops.rewrite.ParquetWriteSettings;
import dev.lakeops.rewrite.arrow.ArrowParquetFileWriter;
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
 * Writes full batches of sorted rows into Parquet files of the target size, in order, counting and
 * checksumming them for verification. Once a file reaches the target it is closed where the leading
 * sort value changes (a batch is split there), so neighbouring files do not share a value of the
 * leading column; a file that grows past {@link #FORCED_ROLL_RATIO} times the target is closed
 * after the batch that took it there. Used by one thread at a time.
 */
final class SortedFileWriter {
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
  private final RowTally tally;
  private final BatchChecksum checksum = new BatchChecksum();
  private final List<DataFile> written = new ArrayList<>();
  private ArrowParquetFileWriter current;
  private EncryptedOutputFile currentFile;
  private boolean rollPending;
  private byte[] lastLeadingValue;
  private Set<String> plainColumns = Set.of();

  SortedFileWriter(
      Table table,
      Schema writeSchema,
      FileGroup group,
      OutputFileFactory outputFiles,
      Optional<SortOrder> recordedOrder,
      SortKeyEncoder encoder,
      long targetFileSizeBytes,
      OptionalLong rowGroupSizeBytes,
      BufferAllocator allocator,
      RowTally tally) {
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
    this.tally = requireNonNull(tally, "tally is null");
  }

  /** Columns the files opened from now on write without trying a dictionary first. */
  void writePlain(Set<String> columns) {
    this.plainColumns = Set.copyOf(columns);
  }

  /** Writes the rows of {@code slot} (already gathered) and empties it. */
  void write(OutputSlot slot) throws IOException {
    VectorSchemaRoot sorted = slot.sortedBatch();
    int rows = sorted.getRowCount();
    if (rows == 0) {
      return;
    }
    // the sorted columns as handed to the writer: the constant columns are filled in below
    int columns = sorted.getFieldVectors().size();
    WriterFaults.apply(sorted, columns);
    rows = sorted.getRowCount();
    tally.written(rows);
    if (tally.checksummed()) {
      tally.addWriteChecksum(checksum.of(sorted, columns));
    }
    VectorSchemaRoot batch = slot.writeBatch();
    int from = 0;
    if (rollPending) {
      int change = firstLeadingChange(sorted, rows);
      if (change < rows) {
        writeRows(batch, 0, change);
        closeCurrent();
        from = change;
      }
    }
    writeRows(batch, from, rows);
    if (!rollPending && current.length() >= targetFileSizeBytes) {
      rollPending = true;
      lastLeadingValue = encoder.leadingValue(sorted, rows - 1);
    }
    if (current.length() >= targetFileSizeBytes * FORCED_ROLL_RATIO) {
      closeCurrent();
    }
    slot.clear();
  }

  /** Closes the last file; returns every file written, in order. */
  List<DataFile> finish() throws IOException {
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

  /** The first row whose leading sort value differs from the last one written, or {@code rows}. */
  private int firstLeadingChange(VectorSchemaRoot sorted, int rows) {
    for (int row = 0; row < rows; row++) {
      byte[] leading = encoder.leadingValue(sorted, row);
      if (leading == null || !Arrays.equals(leading, lastLeadingValue)) {
        return row;
      }
    }
    return rows;
  }

  private void writeRows(VectorSchemaRoot batch, int from, int to) throws IOException {
    if (from == to) {
      return;
    }
    if (current == null) {
      currentFile = OutputFileNames.newOutputFile(outputFiles, spec, group.partition());
      current =
          new ArrowParquetFileWriter(
              writeSchema, settings, currentFile.encryptingOutputFile(), allocator, plainColumns);
    }
    if (from == 0 && to == batch.getRowCount()) {
      current.write(batch);
      return;
    }
    try (VectorSchemaRoot part = batch.slice(from, to - from)) {
      current.write(part);
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
