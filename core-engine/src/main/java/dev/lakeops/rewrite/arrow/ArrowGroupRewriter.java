package dev.lakeops.rewrite.arrow;

import static java.util.Objects.requireNonNull;

import dev.lakeops.plan.FileGroup;
import dev.lakeops.rewrite.DecodeReservation;
import dev.lakeops.rewrite.GroupRewriteStage;
import dev.lakeops.rewrite.InputRowGroupSizes;
import dev.lakeops.rewrite.OutputCleaner;
import dev.lakeops.rewrite.OutputFileNames;
import dev.lakeops.rewrite.ParquetWriteSettings;
import dev.lakeops.rewrite.RewrittenGroup;
import dev.lakeops.rewrite.WriteSchemas;
import dev.lakeops.rewrite.read.LiveBatchReader;
import dev.lakeops.rewrite.read.LiveBatches;
import dev.lakeops.verify.BatchChecksum;
import dev.lakeops.verify.RowTally;
import dev.lakeops.verify.VerificationMode;
import dev.lakeops.verify.WriterFaults;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.MetricsConfig;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.encryption.EncryptedOutputFile;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.parquet.ParquetUtil;

/**
 * The columnar rewrite path for flat schemas: live rows are decoded straight into Arrow batches
 * ({@link LiveBatchReader}: position deletes and deletion vectors applied while decoding; equality
 * deletes through Iceberg's records) and encoded column by column into Parquet, every buffer drawn
 * from the group's share of the memory budget.
 */
public final class ArrowGroupRewriter implements GroupRewriteStage {
  private final Table table;
  private final Schema writeSchema;
  private final org.apache.arrow.vector.types.pojo.Schema arrowSchema;
  private final ParquetWriteSettings settings;
  private final long targetFileSizeBytes;
  private final OutputFileFactory outputFiles;
  private final LiveBatchReader reader;
  private final MetricsConfig metricsConfig;
  private final VerificationMode verification;

  public ArrowGroupRewriter(Table table, long targetFileSizeBytes, OutputFileFactory outputFiles) {
    this(table, targetFileSizeBytes, outputFiles, VerificationMode.COUNTS);
  }

  /** A rewriter that counts rows, and checksums them in {@code checksum} mode, for verification. */
  public ArrowGroupRewriter(
      Table table,
      long targetFileSizeBytes,
      OutputFileFactory outputFiles,
      VerificationMode verification) {
    this.verification = requireNonNull(verification, "verification is null");
    this.table = requireNonNull(table, "table is null");
    this.writeSchema = WriteSchemas.forTable(table);
    this.arrowSchema = ArrowSchemas.toArrow(writeSchema);
    this.settings = ParquetWriteSettings.of(table);
    this.targetFileSizeBytes = targetFileSizeBytes;
    this.outputFiles = requireNonNull(outputFiles, "outputFiles is null");
    this.reader = new LiveBatchReader(table, writeSchema, arrowSchema);
    this.metricsConfig = MetricsConfig.forTable(table);
  }

  /** Whether this path can write {@code table}; the general path takes the rest. */
  public static boolean supports(Table table) {
    return ArrowSchemas.unsupportedColumn(WriteSchemas.forTable(table)).isEmpty()
        && !ParquetWriteSettings.of(table).usesBloomFilters();
  }

  @Override
  public RewrittenGroup rewrite(FileGroup group, BufferAllocator groupAllocator) {
    List<DataFile> written = new ArrayList<>();
    try (BufferAllocator allocator =
            GroupRewriteStage.stageAllocator(groupAllocator, "arrow-decode");
        DecodeReservation readerReservation =
            DecodeReservation.take(
                allocator, group, InputRowGroupSizes.largestRowGroupBytes(group.tasks()), 0)) {
      RowTally tally = new RowTally(verification);
      GroupOutput output = new GroupOutput(group, allocator, written, tally);
      try {
        for (FileScanTask task : group.tasks()) {
          copyRows(task, allocator, output, tally);
        }
        output.finish();
        return new RewrittenGroup(group, written, 0, group.inputBytes(), tally.account());
      } catch (IOException | RuntimeException e) {
        output.abort();
        OutputCleaner.deleteQuietly(table.io(), written, e);
        throw e instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) e;
      }
    }
  }

  private void copyRows(
      FileScanTask task, BufferAllocator allocator, GroupOutput output, RowTally tally)
      throws IOException {
    try (LiveBatches batches = reader.open(task, allocator)) {
      VectorSchemaRoot batch;
      while ((batch = batches.next()) != null) {
        try (VectorSchemaRoot writing = batch) {
          if (tally.checksummed()) {
            tally.addReadChecksum(output.checksum.of(writing, columnCount()));
          }
          output.writeBatch(writing);
        }
      }
      tally.read(batches.rowsRead(), batches.rowsDeleted());
    }
  }

  private int columnCount() {
    return writeSchema.columns().size();
  }

  /** The files one group writes, rolled over at the target size. */
  private final class GroupOutput {
    private final FileGroup group;
    private final PartitionSpec spec;
    private final BufferAllocator allocator;
    private final List<DataFile> written;
    private final RowTally tally;
    private final BatchChecksum checksum = new BatchChecksum();
    private ArrowParquetFileWriter current;
    private EncryptedOutputFile currentFile;

    private GroupOutput(
        FileGroup group, BufferAllocator allocator, List<DataFile> written, RowTally tally) {
      this.group = group;
      this.spec = table.specs().get(group.specId());
      this.allocator = allocator;
      this.written = written;
      this.tally = tally;
    }

    void writeBatch(VectorSchemaRoot batch) throws IOException {
      WriterFaults.apply(batch, columnCount());
      if (batch.getRowCount() == 0) {
        return;
      }
      tally.written(batch.getRowCount());
      if (tally.checksummed()) {
        tally.addWriteChecksum(checksum.of(batch, columnCount()));
      }
      if (current == null) {
        currentFile = OutputFileNames.newOutputFile(outputFiles, spec, group.partition());
        current =
            new ArrowParquetFileWriter(
                writeSchema, settings, currentFile.encryptingOutputFile(), allocator);
      }
      current.write(batch);
      batch.getFieldVectors().forEach(FieldVector::reset);
      batch.setRowCount(0);
      if (current.length() >= targetFileSizeBytes) {
        closeCurrent();
      }
    }

    void finish() throws IOException {
      closeCurrent();
    }

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

    private void closeCurrent() throws IOException {
      if (current == null) {
        return;
      }
      ArrowParquetFileWriter closing = current;
      current = null;
      closing.close();
      Metrics metrics = ParquetUtil.footerMetrics(closing.footer(), Stream.empty(), metricsConfig);
      written.add(
          DataFiles.builder(spec)
              .withPath(currentFile.encryptingOutputFile().location())
              .withFormat(FileFormat.PARQUET)
              .withPartition(group.partition())
              .withFileSizeInBytes(closing.fileLength())
              .withMetrics(metrics)
              .withSplitOffsets(ParquetUtil.getSplitOffsets(closing.footer()))
              .withEncryptionKeyMetadata(currentFile.keyMetadata())
              .build());
    }
  }
}
