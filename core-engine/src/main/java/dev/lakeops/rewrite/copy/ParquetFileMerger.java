package dev.lakeops.rewrite.copy;

import static java.util.Objects.requireNonNull;

import dev.lakeops.io.ReleasableInputFile;
import dev.lakeops.rewrite.IcebergParquetOutputFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Schema;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.parquet.ParquetSchemaUtil;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.values.factory.DefaultV1ValuesWriterFactory;
import org.apache.parquet.hadoop.CodecFactory;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.schema.MessageType;

/**
 * Merges Parquet files into one without decoding values: large row groups are copied whole, small
 * ones are coalesced by concatenating their pages, merging dictionaries where needed. Rows that
 * position deletes remove are left out page by page ({@link DeletedRowPageFilter}), still without
 * decoding values. The files must agree with each other (see {@link ParquetMergeEligibility}); the
 * output keeps their types and field ids. Rows keep their input order. On format v3 tables the
 * output stores row lineage: copied where an input stores it, written from the input's first row id
 * and sequence number where it does not ({@link DerivedLineageChunks}).
 */
public final class ParquetFileMerger {
  private static final int PAGE_SIZE_HINT = 1 << 20;

  private final MessageType schema;
  private final ParquetFooterReader footerReader = new ParquetFooterReader();

  /**
   * @param schema the table's write schema as Parquet, with field ids: it names the output's
   *     columns and tells which columns the table still has (see {@link ParquetMergeEligibility})
   */
  public ParquetFileMerger(MessageType schema) {
    this.schema = requireNonNull(schema, "schema is null");
  }

  /** A merger for a table with the given Parquet write schema (with field ids). */
  public static ParquetFileMerger forSchema(MessageType schema) {
    return new ParquetFileMerger(schema);
  }

  /** A merger for a table with the given Iceberg schema. */
  public static ParquetFileMerger forIcebergSchema(Schema icebergSchema) {
    return new ParquetFileMerger(
        ParquetSchemaUtil.convert(requireNonNull(icebergSchema, "icebergSchema is null"), "table"));
  }

  /**
   * Writes all rows of {@code inputs}, in order, to {@code output}.
   *
   * @throws MergeIneligibleException if the inputs cannot be merged by copying; nothing is written
   * @throws UncheckedIOException if reading or writing fails
   */
  public MergeResult merge(List<InputFile> inputs, OutputFile output, MergeSettings settings) {
    requireNonNull(inputs, "inputs is null");
    requireNonNull(output, "output is null");
    requireNonNull(settings, "settings is null");
    List<InputFooter> footers = new ArrayList<>(inputs.size());
    for (InputFile input : inputs) {
      footers.add(footerReader.read(input));
    }
    return merge(inputs, footers, output, settings);
  }

  /**
   * Like {@link #merge(List, OutputFile, MergeSettings)}, with the inputs' footers already read
   * (one per input, in the same order), so that a caller that checked them does not read them
   * twice.
   */
  public MergeResult merge(
      List<InputFile> inputs,
      List<InputFooter> footers,
      OutputFile output,
      MergeSettings settings) {
    return merge(inputs, footers, InputDeletes.NONE, output, settings);
  }

  /**
   * Like {@link #merge(List, List, OutputFile, MergeSettings)}, leaving out the rows {@code
   * deletes} removes from each input (the columns must be flat: no repeated fields).
   *
   * @throws UnfilterablePageException if a page with deleted rows is in an encoding that cannot be
   *     filtered without decoding; the output is then incomplete and must be deleted
   */
  public MergeResult merge(
      List<InputFile> inputs,
      List<InputFooter> footers,
      InputDeletes deletes,
      OutputFile output,
      MergeSettings settings) {
    return merge(inputs, footers, deletes, InputLineage.NONE, output, settings);
  }

  /**
   * Like {@link #merge(List, List, InputDeletes, OutputFile, MergeSettings)}, for a format v3
   * table: row groups that do not store row lineage get {@code _row_id} and {@code
   * _last_updated_sequence_number} from {@code lineage} (the first row id and sequence number of
   * each input), positions counted in the input file, deleted rows included.
   */
  public MergeResult merge(
      List<InputFile> inputs,
      List<InputFooter> footers,
      InputDeletes deletes,
      InputLineage lineage,
      OutputFile output,
      MergeSettings settings) {
    requireNonNull(deletes, "deletes is null");
    requireNonNull(lineage, "lineage is null");
    requireNonNull(inputs, "inputs is null");
    requireNonNull(footers, "footers is null");
    requireNonNull(output, "output is null");
    requireNonNull(settings, "settings is null");
    if (footers.size() != inputs.size()) {
      throw new IllegalArgumentException(
          "Got "
              + footers.size()
              + " footers for "
              + inputs.size()
              + " input files: pass one footer per input");
    }
    MergeEligibility eligibility = new ParquetMergeEligibility(schema).check(footers);
    if (!eligibility.isEligible()) {
      throw new MergeIneligibleException(eligibility);
    }
    try {
      return write(
          inputs, footers, deletes, lineage, eligibility.layout().orElseThrow(), output, settings);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot merge " + inputs.size() + " files into " + output.location(), e);
    }
  }

  /** An output row group's worth, or all the inputs' bytes where they are fewer. */
  private static long arenaCapacity(List<InputFile> inputs, MergeSettings settings) {
    long inputBytes = 0;
    for (InputFile input : inputs) {
      inputBytes += input.getLength();
    }
    return Math.min(
        Integer.MAX_VALUE - 64, Math.min(inputBytes, settings.targetRowGroupBytes().bytes()));
  }

  private MergeResult write(
      List<InputFile> inputs,
      List<InputFooter> footers,
      InputDeletes deletes,
      InputLineage lineage,
      MergeLayout layout,
      OutputFile output,
      MergeSettings settings)
      throws IOException {
    MessageType outputSchema = layout.outputSchema();
    MergeCounters counters = new MergeCounters();
    IcebergParquetOutputFile parquetOutput = new IcebergParquetOutputFile(output);
    // Without Hadoop's default resources: parsing core-default.xml in every merge cost more than
    // some small merges themselves; the codecs need none of its keys
    CodecFactory codecFactory = new CodecFactory(new Configuration(false), PAGE_SIZE_HINT);
    try (PageCompressions compressions = new PageCompressions(codecFactory, settings.zstdLevel());
        ParquetFileWriter writer =
            new ParquetFileWriter(
                parquetOutput,
                outputSchema,
                ParquetFileWriter.Mode.CREATE,
                settings.targetRowGroupBytes().bytes(),
                0,
                null,
                ParquetProperties.builder()
                    .withValuesWriterFactory(new DefaultV1ValuesWriterFactory())
                    .build())) {
      writer.start();
      ColumnChunkConcatenator concatenator =
          new ColumnChunkConcatenator(
              writer,
              compressions,
              settings.codec(),
              settings.rewriteCodec(),
              settings.maxDictionaryBytes().bytes(),
              settings.pageValueBytes(),
              settings.pageRowLimit(),
              counters);
      RowGroupCoalescer coalescer =
          new RowGroupCoalescer(
              writer,
              outputSchema,
              concatenator,
              counters,
              settings,
              new DerivedLineageChunks(compressions.of(settings.codec()), settings.pageRowLimit()));
      List<LoadedRowGroup> batch = new ArrayList<>();
      long batchBytes = 0;
      RowGroupArena arena = new RowGroupArena(arenaCapacity(inputs, settings));
      for (int index = 0; index < inputs.size(); index++) {
        MergeLayout.InputLayout input = layout.inputs().get(index);
        PositionDeleteIndex deletedPositions = deletes.of(index);
        Optional<DeletedPositions> listedPositions = DeletedPositions.listed(deletedPositions);
        RowLineage inputLineage = null;
        long firstPosition = 0;
        try (BufferedSeekableInputStream stream =
            new BufferedSeekableInputStream(
                InputStreams.open(inputs.get(index)),
                BufferedSeekableInputStream.DEFAULT_BUFFER_BYTES)) {
          List<BlockMetaData> blocks = footers.get(index).footer().getBlocks();
          for (int blockIndex = 0; blockIndex < blocks.size(); blockIndex++) {
            BlockMetaData block = blocks.get(blockIndex);
            DeletedRows deletedRows =
                listedPositions.isPresent()
                    ? listedPositions.get().rowsOf(firstPosition, block.getRowCount())
                    : DeletedRows.of(deletedPositions, firstPosition, block.getRowCount());
            Optional<LoadedRowGroup.DerivedLineage> derivedLineage = Optional.empty();
            if (input.derivesLineage(blockIndex)) {
              if (inputLineage == null) {
                inputLineage = requireNonNull(lineage.of(index), "lineage of an input is null");
              }
              derivedLineage =
                  Optional.of(
                      new LoadedRowGroup.DerivedLineage(
                          inputLineage.startingAt(firstPosition),
                          input.derivedLineage(blockIndex)));
            }
            firstPosition += block.getRowCount();
            if (block.getRowCount() == 0 || deletedRows.deletesAll()) {
              continue;
            }
            long size = block.getCompressedSize();
            if (size >= settings.minCopyRowGroupBytes().bytes()
                && deletedRows.isEmpty()
                && input.fitsUnchanged(blockIndex)
                && settings.keepsCodecOf(block)) {
              coalescer.write(batch);
              batch.clear();
              batchBytes = 0;
              arena.reset();
              writer.appendRowGroup(stream, block, false);
              counters.rowCount += block.getRowCount();
              counters.rowGroupsWritten++;
              counters.rowGroupsCopiedWhole++;
              counters.bytesCopiedVerbatim += size;
              continue;
            }
            long length = LoadedRowGroup.byteLength(block);
            if (!batch.isEmpty()
                && (batchBytes + size > settings.targetRowGroupBytes().bytes()
                    || !arena.fits(length))) {
              coalescer.write(batch);
              batch.clear();
              batchBytes = 0;
              arena.reset();
            }
            batch.add(
                arena.fits(length)
                    ? LoadedRowGroup.loadInto(
                        stream, block, input, deletedRows, derivedLineage, arena)
                    : LoadedRowGroup.load(stream, block, input, deletedRows, derivedLineage));
            batchBytes += size;
          }
        }
        // its row groups are written or loaded: bytes fetched ahead go to the next inputs
        if (inputs.get(index) instanceof ReleasableInputFile fetched) {
          fetched.release();
        }
      }
      coalescer.write(batch);
      Map<String, String> keyValueMetadata =
          footers.get(0).footer().getFileMetaData().getKeyValueMetaData();
      writer.end(keyValueMetadata);
      return counters.toResult(parquetOutput.writtenLength(), writer.getFooter());
    } finally {
      codecFactory.release();
    }
  }
}
