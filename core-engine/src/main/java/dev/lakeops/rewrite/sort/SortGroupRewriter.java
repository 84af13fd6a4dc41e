package dev.lakeops.rewrite.sort;

import static java.util.Objects.requireNonNull;

import dev.lakeops.plan.FileGroup;
import dev.lakeops.rewrite.GroupRewriteStage;
import dev.lakeops.rewrite.OutputCleaner;
import dev.lakeops.rewrite.RewrittenGroup;
import dev.lakeops.rewrite.WriteSchemas;
import dev.lakeops.rewrite.arrow.ArrowSchemas;
import dev.lakeops.rewrite.read.LiveBatchReader;
import dev.lakeops.rewrite.read.LiveBatches;
import dev.lakeops.rewrite.read.LocalReadAhead;
import dev.lakeops.verify.BatchChecksum;
import dev.lakeops.verify.RowTally;
import dev.lakeops.verify.VerificationMode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.OutputFileFactory;

/**
 * Rewrites a file group in a {@link SortLayout}: live rows (deletes applied) go through an {@link
 * ExternalSorter} under the group's share of the memory budget, spilling sorted runs to the spill
 * directory when they do not fit, and come out in order into Parquet files of the target size. The
 * group's allocator is split into named children with hard limits: {@code sort-runs} (in-memory
 * runs, later the merge's readers), {@code sort-spill} (the batch a run is written from) and {@code
 * sort-output} (the output batch and Parquet page buffers). The output holds nothing while rows
 * come in, so runs may then grow into its share ({@link #RUNS_SHARE}); once rows go out the merge
 * keeps to {@link #MERGE_SHARE}. Columns that hold one value in the whole group ({@link
 * ConstantColumns}: identity partition columns, columns whose file metrics prove one value) are not
 * read, sorted or spilled, only filled in at the output.
 */
public final class SortGroupRewriter implements GroupRewriteStage {
  /**
   * In-memory runs while rows come in: the output's idle share too, less a margin that keeps the
   * process under 768 MB resident at a 256 MB budget (the JVM's heap holds decoded pages beside
   * it).
   */
  private static final double RUNS_SHARE = 0.65;

  /** Rows held and run readers once rows go out, next to the output's share. */
  private static final double MERGE_SHARE = 0.4;

  private static final double SPILL_SHARE = 0.1;
  private static final double OUTPUT_SHARE = 0.5;

  private final Table table;
  private final SortLayout layout;
  private final Schema writeSchema;
  private final org.apache.arrow.vector.types.pojo.Schema batchSchema;
  private final long targetFileSizeBytes;
  private final OptionalLong rowGroupSizeBytes;
  private final OutputFileFactory outputFiles;
  private final Path spillDirectory;
  private final LiveBatchReader reader;
  private final AtomicLong spilledBytes = new AtomicLong();
  private final AtomicInteger spillFiles = new AtomicInteger();

  /** Groups being rewritten at this moment, which decides whether a group's input is pipelined. */
  private final AtomicInteger runningGroups = new AtomicInteger();

  private final VerificationMode verification;

  public SortGroupRewriter(
      Table table,
      SortLayout layout,
      long targetFileSizeBytes,
      OutputFileFactory outputFiles,
      Path spillDirectory) {
    this(table, layout, targetFileSizeBytes, OptionalLong.empty(), outputFiles, spillDirectory);
  }

  /**
   * Writes row groups of {@code rowGroupSizeBytes} when given, else of the table's row-group size.
   */
  public SortGroupRewriter(
      Table table,
      SortLayout layout,
      long targetFileSizeBytes,
      OptionalLong rowGroupSizeBytes,
      OutputFileFactory outputFiles,
      Path spillDirectory) {
    this(
        table,
        layout,
        targetFileSizeBytes,
        rowGroupSizeBytes,
        outputFiles,
        spillDirectory,
        VerificationMode.CHECKSUM);
  }

  /**
   * Writes row groups of {@code rowGroupSizeBytes} when given, else of the table's row-group size;
   * counts rows, and checksums them in {@code checksum} mode, for verification.
   */
  public SortGroupRewriter(
      Table table,
      SortLayout layout,
      long targetFileSizeBytes,
      OptionalLong rowGroupSizeBytes,
      OutputFileFactory outputFiles,
      Path spillDirectory,
      VerificationMode verification) {
    this.verification = requireNonNull(verification, "verification is null");
    this.rowGroupSizeBytes = requireNonNull(rowGroupSizeBytes, "rowGroupSizeBytes is null");
    this.table = requireNonNull(table, "table is null");
    this.layout = requireNonNull(layout, "layout is null");
    this.writeSchema = WriteSchemas.forTable(table);
    this.batchSchema = SortKeys.withKeyColumn(ArrowSchemas.toArrow(writeSchema));
    this.targetFileSizeBytes = targetFileSizeBytes;
    this.outputFiles = requireNonNull(outputFiles, "outputFiles is null");
    this.spillDirectory = requireNonNull(spillDirectory, "spillDirectory is null");
    this.reader = new LiveBatchReader(table, writeSchema, batchSchema);
  }

  /** Bytes written to spill files by every group so far. */
  public long spilledBytes() {
    return spilledBytes.get();
  }

  /** Spill files (sorted runs, including intermediate merge runs) written by every group so far. */
  public int spillFiles() {
    return spillFiles.get();
  }

  @Override
  public RewrittenGroup rewrite(FileGroup group, BufferAllocator groupAllocator) {
    String name = "sort-group-" + group.index();
    runningGroups.incrementAndGet();
    try (BufferAllocator allocator = GroupRewriteStage.stageAllocator(groupAllocator, name);
        BufferAllocator runs = child(allocator, "sort-runs", RUNS_SHARE);
        BufferAllocator spill = child(allocator, "sort-spill", SPILL_SHARE);
        BufferAllocator output = child(allocator, "sort-output", OUTPUT_SHARE);
        SpillFiles spillFilesOfGroup = new SpillFiles(spillDirectory, name)) {
      try {
        RowTally tally = new RowTally(verification);
        List<DataFile> written = sortAndWrite(group, runs, spill, output, spillFilesOfGroup, tally);
        return new RewrittenGroup(group, written, 0, group.inputBytes(), tally.account());
      } finally {
        spilledBytes.addAndGet(spillFilesOfGroup.spilledBytes());
        spillFiles.addAndGet(spillFilesOfGroup.filesWritten());
      }
    } finally {
      runningGroups.decrementAndGet();
    }
  }

  private List<DataFile> sortAndWrite(
      FileGroup group,
      BufferAllocator runs,
      BufferAllocator spill,
      BufferAllocator output,
      SpillFiles spillFilesOfGroup,
      RowTally tally) {
    ConstantColumns constants =
        ConstantColumns.of(
            writeSchema, table.specs().get(group.specId()), group, layout.keyFieldIds());
    // constant columns are neither read nor sorted: the output fills them in
    Schema sortedSchema = constants.withoutConstants(writeSchema);
    org.apache.arrow.vector.types.pojo.Schema sortedBatchSchema =
        constants.isEmpty()
            ? batchSchema
            : SortKeys.withKeyColumn(ArrowSchemas.toArrow(sortedSchema));
    LiveBatchReader groupReader =
        constants.isEmpty() ? reader : new LiveBatchReader(table, sortedSchema, sortedBatchSchema);
    SortKeyEncoder encoder = layout.encoderFor(sortedSchema, group);
    try (ExternalSorter sorter =
            new ExternalSorter(
                sortedBatchSchema,
                encoder,
                runs,
                (long) (runs.getParentAllocator().getLimit() * MERGE_SHARE),
                spill,
                spillFilesOfGroup);
        SortedFileOutput files =
            new SortedFileOutput(
                table,
                writeSchema,
                constants,
                group,
                outputFiles,
                layout.recordedOrder(),
                encoder,
                targetFileSizeBytes,
                rowGroupSizeBytes,
                output,
                tally)) {
      try {
        DictionarySampler dictionaries =
            new DictionarySampler(
                sortedSchema.columns().stream().map(column -> column.name()).toList());
        int sortedColumns = sortedSchema.columns().size();
        BufferAllocator batches = sorter.batchAllocator();
        if (runningGroups.get() * 2 <= Runtime.getRuntime().availableProcessors()) {
          // a processor to spare: decoding on a thread of its own overlaps the sort; one batch
          // waits in the hand-over while the next is decoded
          sorter.withBatchesReadAhead(1);
          try (InputPipeline input =
              InputPipeline.start(
                  "lakeops-sort-input-" + group.index(),
                  sink ->
                      read(
                          group, groupReader, batches, sortedColumns, tally, dictionaries, sink))) {
            VectorSchemaRoot batch;
            while ((batch = input.next()) != null) {
              sorter.add(batch);
            }
          }
        } else {
          read(group, groupReader, batches, sortedColumns, tally, dictionaries, sorter::add);
        }
        files.writePlain(dictionaries.plainColumns());
        sorter.finish(files);
        return files.finish();
      } catch (IOException | RuntimeException e) {
        files.abort();
        OutputCleaner.deleteQuietly(table.io(), files.written(), e);
        throw e instanceof IOException io
            ? new UncheckedIOException(
                "Cannot sort file group " + group.partitionPath() + ": " + io.getMessage(), io)
            : (RuntimeException) e;
      }
    }
  }

  /**
   * Reads the live rows of {@code group} into {@code sink}, a batch at a time, on the input
   * pipeline's thread: each batch is counted, checksummed and sampled for dictionaries first.
   */
  private void read(
      FileGroup group,
      LiveBatchReader groupReader,
      BufferAllocator batches,
      int sortedColumns,
      RowTally tally,
      DictionarySampler dictionaries,
      InputPipeline.BatchSink sink)
      throws IOException {
    BatchChecksum checksum = new BatchChecksum();
    try (LocalReadAhead readAhead =
        LocalReadAhead.start(table.io(), group.tasks(), "sort-group-" + group.index())) {
      long readBytes = 0;
      for (FileScanTask task : group.tasks()) {
        try (LiveBatches live = groupReader.open(task, batches)) {
          VectorSchemaRoot batch;
          while ((batch = live.next()) != null) {
            if (tally.checksummed()) {
              // the batch's last column, the sort key, is not filled in yet and not hashed
              tally.addReadChecksum(checksum.of(batch, sortedColumns));
            }
            dictionaries.sample(batch);
            sink.accept(batch);
          }
          tally.read(live.rowsRead(), live.rowsDeleted());
        }
        readBytes += task.length();
        readAhead.read(readBytes);
      }
    }
  }

  private static BufferAllocator child(BufferAllocator parent, String name, double share) {
    return parent.newChildAllocator(name, 0, (long) (parent.getLimit() * share));
  }
}
