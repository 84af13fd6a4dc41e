package dev.lakeops.rewrite.copy;

import static java.util.Objects.requireNonNull;

import dev.lakeops.plan.FileGroup;
import dev.lakeops.rewrite.GroupRewriteStage;
import dev.lakeops.rewrite.OutputCleaner;
import dev.lakeops.rewrite.OutputFileNames;
import dev.lakeops.rewrite.ParquetWriteSettings;
import dev.lakeops.rewrite.RewrittenGroup;
import dev.lakeops.rewrite.UnreadableDataFileException;
import dev.lakeops.rewrite.WriteSchemas;
import dev.lakeops.rewrite.read.TaskPositionDeletes;
import dev.lakeops.unit.ByteSize;
import dev.lakeops.verify.GroupRowAccount;
import dev.lakeops.verify.RowTally;
import dev.lakeops.verify.VerificationMode;
import dev.lakeops.verify.WriterFaults;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetricsConfig;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.encryption.EncryptedOutputFile;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.parquet.ParquetSchemaUtil;
import org.apache.iceberg.parquet.ParquetUtil;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.MessageType;

/**
 * The decode-free path: a group whose Parquet files agree with each other (see {@link
 * ParquetMergeEligibility}) is merged by copying row groups and pages; rows that position deletes
 * or deletion vectors remove are left out page by page without decoding values ({@link
 * DeletedRowPageFilter}). On format v3 tables the new files store row lineage ({@code _row_id},
 * {@code _last_updated_sequence_number}): copied where an input stores it, derived from the input's
 * first row id and file sequence number where it does not; files that store it for some rows only
 * are decoded apart from the group's others. Any other group (equality deletes, deletes in a table
 * with repeated columns, pages in encodings that cannot be filtered, ...) goes to the decoding
 * path, recorded with its {@link FallbackReasons fallback reason}. The merge's heap buffers (at
 * most one output row group of loaded input row groups, plus the pages it rewrites) are reserved
 * from the memory budget, as an untouched Arrow buffer, before it starts.
 */
public final class CopyingGroupRewriter implements GroupRewriteStage {
  private static final long MIN_ROW_GROUP_BYTES = 8L << 20;
  private static final long PAGE_WORK_BYTES = 8L << 20;

  private final Table table;
  private final long targetFileSizeBytes;
  private final OutputFileFactory outputFiles;
  private final long groupShareBytes;
  private final GroupRewriteStage decodingRewriter;
  private final MessageType writeSchema;
  private final MergeSettings settings;
  private final MetricsConfig metricsConfig;
  private final ParquetFooterReader footerReader = new ParquetFooterReader();
  private final TaskPositionDeletes positionDeletes;

  public CopyingGroupRewriter(
      Table table,
      long targetFileSizeBytes,
      OutputFileFactory outputFiles,
      long groupShareBytes,
      boolean rewriteCodec,
      GroupRewriteStage decodingRewriter) {
    this.table = requireNonNull(table, "table is null");
    this.targetFileSizeBytes = targetFileSizeBytes;
    this.outputFiles = requireNonNull(outputFiles, "outputFiles is null");
    this.groupShareBytes = groupShareBytes;
    this.decodingRewriter = requireNonNull(decodingRewriter, "decodingRewriter is null");
    this.writeSchema = ParquetSchemaUtil.convert(WriteSchemas.forTable(table), "table");
    ParquetWriteSettings writeSettings = ParquetWriteSettings.of(table);
    long rowGroupBytes =
        Math.max(
            MIN_ROW_GROUP_BYTES, Math.min(writeSettings.rowGroupSizeBytes(), groupShareBytes / 2));
    this.settings =
        MergeSettings.defaults()
            .withCodec(writeSettings.codec())
            .withRewriteCodec(rewriteCodec)
            .withZstdLevel(zstdLevel(writeSettings))
            .withPageLimits(writeSettings.pageSizeBytes(), writeSettings.pageRowLimit())
            .withTargetRowGroupBytes(ByteSize.ofBytes(rowGroupBytes))
            .withMinCopyRowGroupBytes(
                ByteSize.ofBytes(
                    Math.min(
                        rowGroupBytes, MergeSettings.MIN_COPY_ROW_GROUP_BYTES_DEFAULT.bytes())));
    this.metricsConfig = MetricsConfig.forTable(table);
    this.positionDeletes = new TaskPositionDeletes(table, WriteSchemas.forTable(table));
  }

  @Override
  public RewrittenGroup rewrite(FileGroup group, BufferAllocator groupAllocator) {
    CopyInputs inputs = copyInputs(group);
    if (inputs.inputs().isEmpty()) {
      return decodingRewriter
          .rewrite(group, groupAllocator)
          .withFallbackReason(inputs.fallbackReason());
    }
    Optional<RewrittenGroup> decoded =
        inputs.decoded().isEmpty()
            ? Optional.empty()
            : Optional.of(decodingRewriter.rewrite(part(group, inputs.decoded()), groupAllocator));
    List<DataFile> written = new ArrayList<>();
    decoded.ifPresent(part -> written.addAll(part.addedFiles()));
    RowTally tally = new RowTally(VerificationMode.COUNTS);
    try (BufferAllocator allocator =
            GroupRewriteStage.stageAllocator(groupAllocator, "decode-free-merge");
        ArrowBuf reservation = allocator.buffer(reservationBytes())) {
      for (List<CopyInput> outputInputs : splitByTargetSize(inputs.inputs())) {
        mergeInto(group, outputInputs, tally).ifPresent(written::add);
      }
      if (decoded.isEmpty()) {
        return new RewrittenGroup(group, written, group.inputBytes(), 0, tally.account());
      }
      return withDecodedPart(group, written, tally.account(), decoded.get(), inputs);
    } catch (UnfilterablePageException e) {
      OutputCleaner.deleteQuietly(table.io(), written, e);
      return decodingRewriter
          .rewrite(group, groupAllocator)
          .withFallbackReason(FallbackReasons.UNFILTERABLE_ENCODINGS);
    } catch (RuntimeException e) {
      OutputCleaner.deleteQuietly(table.io(), written, e);
      throw e;
    }
  }

  /** The files of {@code group} in {@code tasks} as a group of their own. */
  private static FileGroup part(FileGroup group, List<FileScanTask> tasks) {
    return new FileGroup(
        group.index(), group.specId(), group.partition(), group.partitionPath(), tasks);
  }

  /**
   * {@code group} rewritten in two parts: {@code written} holds the decoded part's files and the
   * merged ones; the rows the merge counted and those the decoding path counted add up.
   */
  private static RewrittenGroup withDecodedPart(
      FileGroup group,
      List<DataFile> written,
      GroupRowAccount merged,
      RewrittenGroup decoded,
      CopyInputs inputs) {
    GroupRowAccount counted = decoded.rowAccount();
    GroupRowAccount account =
        counted.accounted() && !counted.checksummed()
            ? GroupRowAccount.counted(
                merged.rowsRead() + counted.rowsRead(),
                merged.rowsDeleted() + counted.rowsDeleted(),
                merged.rowsWritten() + counted.rowsWritten())
            : GroupRowAccount.NONE;
    long decodedBytes = decoded.group().inputBytes();
    return new RewrittenGroup(
        group,
        written,
        group.inputBytes() - decodedBytes,
        decodedBytes,
        inputs.fallbackReason(),
        account);
  }

  /** The table's {@code write.parquet.compression-level} where its codec is zstd. */
  private static int zstdLevel(ParquetWriteSettings writeSettings) {
    if (writeSettings.codec() != CompressionCodecName.ZSTD
        || writeSettings.compressionLevel().isEmpty()) {
      return MergeSettings.ZSTD_LEVEL_DEFAULT;
    }
    String level = writeSettings.compressionLevel().get().trim();
    try {
      return Integer.parseInt(level);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "Invalid zstd level '"
              + level
              + "' in table property write.parquet.compression-level: use a whole number",
          e);
    }
  }

  /** One output row group of loaded input row groups plus the pages being rewritten. */
  private long reservationBytes() {
    return Math.min(groupShareBytes, settings.targetRowGroupBytes().bytes() + PAGE_WORK_BYTES);
  }

  /** The group's files with their footers, or why the group cannot be merged by copying. */
  private CopyInputs copyInputs(FileGroup group) {
    if (group.hasDeletes()) {
      if (group.deleteFiles().stream()
          .anyMatch(delete -> delete.content() == FileContent.EQUALITY_DELETES)) {
        return CopyInputs.fallback(FallbackReasons.EQUALITY_DELETES);
      }
      if (writeSchema.getColumns().stream()
          .anyMatch(column -> column.getMaxRepetitionLevel() > 0)) {
        return CopyInputs.fallback(FallbackReasons.DELETES_WITH_REPEATED_COLUMNS);
      }
    }
    if (group.tasks().stream().anyMatch(task -> task.file().format() != FileFormat.PARQUET)) {
      return CopyInputs.fallback(FallbackReasons.NOT_PARQUET);
    }
    List<CopyInput> inputs = new ArrayList<>();
    for (FileScanTask task : group.tasks()) {
      try {
        InputFile file = table.io().newInputFile(task.file());
        inputs.add(new CopyInput(task, file, footerReader.read(file)));
      } catch (MergeIneligibleException e) {
        return CopyInputs.fallback(e.eligibility().fallbackReason());
      } catch (RuntimeException e) {
        throw UnreadableDataFileException.wrapIfRead(task.file().location(), e);
      }
    }
    MergeEligibility eligibility = eligibility(inputs);
    if (eligibility.fallbackReason().equals(FallbackReasons.LINEAGE_PARTLY_STORED)) {
      return withoutPartlyStoredLineage(inputs);
    }
    if (!eligibility.isEligible()) {
      return CopyInputs.fallback(eligibility.fallbackReason());
    }
    return unfilterable(inputs)
        ? CopyInputs.fallback(FallbackReasons.UNFILTERABLE_ENCODINGS)
        : new CopyInputs(inputs, List.of(), "");
  }

  private MergeEligibility eligibility(List<CopyInput> inputs) {
    return new ParquetMergeEligibility(writeSchema)
        .check(inputs.stream().map(CopyInput::footer).toList());
  }

  private static boolean unfilterable(List<CopyInput> inputs) {
    return inputs.stream()
        .filter(input -> !input.task().deletes().isEmpty())
        .anyMatch(input -> !FilterableEncodings.allFilterable(input.footer().footer()));
  }

  /**
   * Files that store row lineage for some rows of a row group only are decoded on their own; the
   * others are merged, where they agree with each other. Otherwise the whole group is decoded.
   */
  private CopyInputs withoutPartlyStoredLineage(List<CopyInput> inputs) {
    List<CopyInput> merged = new ArrayList<>();
    List<FileScanTask> decoded = new ArrayList<>();
    for (CopyInput input : inputs) {
      if (eligibility(List.of(input)).isEligible()) {
        merged.add(input);
      } else {
        decoded.add(input.task());
      }
    }
    if (merged.isEmpty() || !eligibility(merged).isEligible() || unfilterable(merged)) {
      return CopyInputs.fallback(FallbackReasons.LINEAGE_PARTLY_STORED);
    }
    return new CopyInputs(merged, decoded, FallbackReasons.LINEAGE_PARTLY_STORED);
  }

  private List<List<CopyInput>> splitByTargetSize(List<CopyInput> inputs) {
    List<List<CopyInput>> outputs = new ArrayList<>();
    List<CopyInput> current = new ArrayList<>();
    long currentBytes = 0;
    for (CopyInput input : inputs) {
      long size = input.task().file().fileSizeInBytes();
      if (!current.isEmpty() && currentBytes + size > targetFileSizeBytes) {
        outputs.add(current);
        current = new ArrayList<>();
        currentBytes = 0;
      }
      current.add(input);
      currentBytes += size;
    }
    if (!current.isEmpty()) {
      outputs.add(current);
    }
    return outputs;
  }

  /** Merges {@code copyInputs} into one new file; empty when deletes removed every row. */
  private Optional<DataFile> mergeInto(
      FileGroup group, List<CopyInput> copyInputs, RowTally tally) {
    PartitionSpec spec = table.specs().get(group.specId());
    EncryptedOutputFile output =
        OutputFileNames.newOutputFile(outputFiles, spec, group.partition());
    List<InputFile> inputs = copyInputs.stream().map(CopyInput::file).toList();
    List<InputFooter> footers = copyInputs.stream().map(CopyInput::footer).toList();
    List<CountedDeletes> counted = new ArrayList<>();
    boolean dropFirstRow = WriterFaults.dropsRow();
    InputDeletes deletes =
        index -> {
          CountedDeletes input =
              new CountedDeletes(
                  deletedPositions(copyInputs.get(index).task()), dropFirstRow && index == 0);
          counted.add(input);
          return input;
        };
    MergeResult result;
    try {
      result =
          ParquetFileMerger.forSchema(writeSchema)
              .merge(
                  inputs,
                  footers,
                  deletes,
                  index -> lineageOf(copyInputs.get(index).task()),
                  output.encryptingOutputFile(),
                  settings);
    } catch (RuntimeException e) {
      try {
        table.io().deleteFile(output.encryptingOutputFile().location());
      } catch (RuntimeException cleanup) {
        e.addSuppressed(cleanup);
      }
      throw e;
    }
    for (InputFooter footer : footers) {
      tally.read(
          footer.footer().getBlocks().stream().mapToLong(block -> block.getRowCount()).sum(), 0);
    }
    tally.read(0, counted.stream().mapToLong(CountedDeletes::deletedRows).sum());
    tally.written(result.rowCount());
    if (result.rowCount() == 0) {
      table.io().deleteFile(output.encryptingOutputFile().location());
      return Optional.empty();
    }
    return Optional.of(
        DataFiles.builder(spec)
            .withPath(output.encryptingOutputFile().location())
            .withFormat(FileFormat.PARQUET)
            .withPartition(group.partition())
            .withFileSizeInBytes(result.outputLength())
            .withMetrics(ParquetUtil.footerMetrics(result.footer(), Stream.empty(), metricsConfig))
            .withSplitOffsets(ParquetUtil.getSplitOffsets(result.footer()))
            .withEncryptionKeyMetadata(output.keyMetadata())
            .build());
  }

  /**
   * The lineage Iceberg's readers give the rows of {@code task}'s file where it stores none (see
   * {@code PartitionUtil.constantsMap}): ids from its first row id, the file sequence number.
   */
  private static RowLineage lineageOf(FileScanTask task) {
    return new RowLineage(task.file().firstRowId(), task.file().fileSequenceNumber());
  }

  private PositionDeleteIndex deletedPositions(FileScanTask task) throws IOException {
    return positionDeletes
        .read(task)
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "Equality deletes of " + task.file().location() + " reached the copy path"));
  }

  /** One input file of a copy merge, with the footer read while checking eligibility. */
  private record CopyInput(FileScanTask task, InputFile file, InputFooter footer) {}

  /**
   * A group's copy inputs, or (with no inputs) the reason it has to be decoded.
   *
   * @param inputs the files to merge
   * @param decoded the group's files to decode instead, with the others merged ({@code
   *     fallbackReason} says why)
   * @param fallbackReason why the group, or its {@code decoded} files, are decoded; empty when none
   *     is
   */
  private record CopyInputs(
      List<CopyInput> inputs, List<FileScanTask> decoded, String fallbackReason) {
    static CopyInputs fallback(String reason) {
      return new CopyInputs(List.of(), List.of(), reason);
    }
  }
}
