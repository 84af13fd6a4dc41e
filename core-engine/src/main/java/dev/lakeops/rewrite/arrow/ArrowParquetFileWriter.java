package dev.lakeops.rewrite.arrow;

import static java.util.Objects.requireNonNull;

import dev.lakeops.memory.ArrowByteBufferAllocator;
import dev.lakeops.rewrite.IcebergParquetOutputFile;
import dev.lakeops.rewrite.ParquetWriteSettings;
import dev.lakeops.rewrite.encode.ColumnChunkEncoder;
import dev.lakeops.rewrite.encode.ColumnChunkEncoders;
import dev.lakeops.rewrite.encode.PageLimits;
import dev.lakeops.rewrite.encode.ZstdLevelChoice;
import dev.lakeops.rewrite.encode.ZstdPageCompressor;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.parquet.ParquetSchemaUtil;
import org.apache.iceberg.types.Types;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.page.PageWriter;
import org.apache.parquet.column.values.factory.DefaultV1ValuesWriterFactory;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputCompressor;
import org.apache.parquet.hadoop.CodecFactory;
import org.apache.parquet.hadoop.ColumnChunkPageWriteStore;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * Writes Arrow batches of a flat schema to one Parquet file, column by column, with Iceberg field
 * ids in the Parquet schema. Numbers, dates, times, timestamps, strings and binaries are encoded a
 * page at a time by {@link ColumnChunkEncoder}s; the other columns go value by value through
 * parquet-java's column writers. Compressed pages and row-group buffers come from an Arrow
 * allocator, so they count against the memory budget; a row group is flushed early when the
 * allocator nears its limit.
 */
public final class ArrowParquetFileWriter implements AutoCloseable {
  private static final double FLUSH_AT_BUDGET_FRACTION = 0.5;

  private final Schema schema;
  private final MessageType parquetSchema;
  private final List<ColumnDescriptor> columns;
  private final List<Types.NestedField> fields;

  /** Per column, its value-by-value write, or null where a page encoder writes it. */
  private final ValueByValueColumnWrites.ColumnWrite[] valueByValueWrites;

  private final boolean[] dictionaryColumns;
  private final MessageType valueByValueSchema;
  private final PageLimits pageLimits;
  private final ColumnChunkEncoder[] encoders;
  private final ZstdLevelChoice.Column[] columnLevels;
  private final ParquetWriteSettings settings;
  private final BufferAllocator allocator;
  private final ArrowByteBufferAllocator parquetAllocator;
  private final ParquetProperties properties;
  private final CodecFactory codecs;
  private final BytesInputCompressor compressor;
  private final ParquetFileWriter fileWriter;
  private final long rowGroupSizeBytes;
  private ColumnChunkPageWriteStore pageStore;
  private ColumnWriteStore columnStore;
  private long rowsInRowGroup;
  private long rows;
  private ParquetMetadata footer;
  private boolean closed;

  public ArrowParquetFileWriter(
      Schema schema, ParquetWriteSettings settings, OutputFile output, BufferAllocator allocator)
      throws IOException {
    this(schema, settings, output, allocator, Set.of());
  }

  /**
   * @param plainColumns top-level columns written without trying dictionary encoding first (columns
   *     known to hold too many distinct values for a dictionary to pay)
   */
  public ArrowParquetFileWriter(
      Schema schema,
      ParquetWriteSettings settings,
      OutputFile output,
      BufferAllocator allocator,
      Set<String> plainColumns)
      throws IOException {
    this.schema = requireNonNull(schema, "schema is null");
    this.settings = requireNonNull(settings, "settings is null");
    this.allocator = requireNonNull(allocator, "allocator is null");
    this.parquetSchema = ParquetSchemaUtil.convert(schema, "table");
    this.columns = parquetSchema.getColumns();
    this.fields = schema.columns();
    this.valueByValueWrites = new ValueByValueColumnWrites.ColumnWrite[fields.size()];
    this.dictionaryColumns = new boolean[fields.size()];
    List<Type> valueByValueFields = new ArrayList<>();
    for (int column = 0; column < fields.size(); column++) {
      Types.NestedField field = fields.get(column);
      dictionaryColumns[column] = !plainColumns.contains(field.name());
      if (!ColumnChunkEncoders.supports(field.type())) {
        Type parquetType = parquetSchema.getType(field.name());
        valueByValueWrites[column] =
            ValueByValueColumnWrites.forType(field.type(), parquetType.asPrimitiveType())
                .orElseThrow(
                    () ->
                        new IllegalArgumentException(
                            "No Parquet column writer for " + field.type()));
        valueByValueFields.add(parquetType);
      }
    }
    this.valueByValueSchema =
        valueByValueFields.isEmpty()
            ? null
            : new MessageType(parquetSchema.getName(), valueByValueFields);
    this.pageLimits =
        new PageLimits(
            settings.pageSizeBytes(), settings.pageRowLimit(), settings.dictionarySizeBytes());
    this.encoders = new ColumnChunkEncoder[fields.size()];
    this.columnLevels = new ZstdLevelChoice.Column[fields.size()];
    this.parquetAllocator = new ArrowByteBufferAllocator(allocator);
    ParquetProperties.Builder builder = ParquetProperties.builder();
    plainColumns.forEach(column -> builder.withDictionaryEncoding(column, false));
    this.properties =
        builder
            .withPageSize(settings.pageSizeBytes())
            .withPageRowCountLimit(settings.pageRowLimit())
            .withDictionaryPageSize(settings.dictionarySizeBytes())
            .withDictionaryEncoding(true)
            .withWriterVersion(ParquetProperties.WriterVersion.PARQUET_1_0)
            .withAllocator(parquetAllocator)
            // the builder's default factory is one static instance that remembers the last
            // properties it saw (and so another writer's allocator): give each writer its own
            .withValuesWriterFactory(new DefaultV1ValuesWriterFactory())
            .build();
    Configuration configuration = new Configuration(false);
    settings
        .compressionLevel()
        .ifPresent(
            level -> {
              configuration.set("parquet.compression.codec.zstd.level", level);
              configuration.set("zlib.compress.level", level);
            });
    this.codecs = new CodecFactory(configuration, settings.pageSizeBytes());
    this.compressor =
        settings.codec() == CompressionCodecName.ZSTD
            ? ZstdPageCompressor.atTableLevel(settings.compressionLevel())
            : codecs.getCompressor(settings.codec());
    this.rowGroupSizeBytes =
        Math.max(
            1 << 20,
            Math.min(
                settings.rowGroupSizeBytes(),
                (long) (allocator.getLimit() * FLUSH_AT_BUDGET_FRACTION)));
    this.fileWriter =
        new ParquetFileWriter(
            new IcebergParquetOutputFile(output),
            parquetSchema,
            ParquetFileWriter.Mode.OVERWRITE,
            rowGroupSizeBytes,
            0,
            properties.getColumnIndexTruncateLength(),
            properties.getStatisticsTruncateLength(),
            properties.getPageWriteChecksumEnabled());
    fileWriter.start();
    startRowGroup();
  }

  /** Appends every row of {@code batch}; its vectors must follow the writer's schema. */
  public void write(VectorSchemaRoot batch) throws IOException {
    int rowCount = batch.getRowCount();
    for (int column = 0; column < fields.size(); column++) {
      FieldVector vector = batch.getVector(column);
      if (encoders[column] != null) {
        encoders[column].write(vector, rowCount);
      } else {
        ColumnWriter writer = columnStore.getColumnWriter(columns.get(column));
        valueByValueWrites[column].write(
            vector, rowCount, writer, columns.get(column).getMaxDefinitionLevel());
      }
    }
    if (columnStore != null) {
      for (int row = 0; row < rowCount; row++) {
        columnStore.endRecord();
      }
    }
    rowsInRowGroup += rowCount;
    rows += rowCount;
    if (bufferedBytes() >= rowGroupSizeBytes
        || allocator.getAllocatedMemory() >= allocator.getLimit() * FLUSH_AT_BUDGET_FRACTION) {
      flushRowGroup();
      startRowGroup();
    }
  }

  /** Bytes written so far plus bytes buffered for the current row group. */
  public long length() throws IOException {
    return fileWriter.getPos() + (pageStore == null ? 0 : bufferedBytes());
  }

  /** Bytes of the current row group, encoded and buffered. */
  private long bufferedBytes() {
    long bytes = columnStore == null ? 0 : columnStore.getBufferedSize();
    for (ColumnChunkEncoder encoder : encoders) {
      if (encoder != null) {
        bytes += encoder.bufferedBytes();
      }
    }
    return bytes;
  }

  public long rows() {
    return rows;
  }

  /** The footer, available after {@link #close()}. */
  public ParquetMetadata footer() {
    if (footer == null) {
      throw new IllegalStateException("The footer is known only after close()");
    }
    return footer;
  }

  public long fileLength() throws IOException {
    return fileWriter.getPos();
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      flushRowGroup();
      fileWriter.end(Map.of("iceberg.schema", SchemaParser.toJson(schema)));
      footer = fileWriter.getFooter();
    } finally {
      releaseBuffers();
    }
  }

  /** Stops without finishing the file; the caller deletes it. */
  public void abort() {
    closed = true;
    releaseBuffers();
  }

  private void startRowGroup() {
    pageStore =
        new ColumnChunkPageWriteStore(
            compressor,
            parquetSchema,
            parquetAllocator,
            properties.getColumnIndexTruncateLength(),
            properties.getPageWriteChecksumEnabled());
    columnStore =
        valueByValueSchema == null
            ? null
            : properties.newColumnWriteStore(valueByValueSchema, pageStore, pageStore);
    for (int column = 0; column < encoders.length; column++) {
      encoders[column] =
          valueByValueWrites[column] != null
              ? null
              : ColumnChunkEncoders.forColumn(
                  fields.get(column).type(),
                  columns.get(column),
                  columnPageWriter(column, columns.get(column)),
                  pageLimits,
                  dictionaryColumns[column]);
    }
    rowsInRowGroup = 0;
  }

  /**
   * The row group's page writer of {@code descriptor}, the {@code column}th: with zstd, one that
   * names the column to the compressor, which keeps a level choice per column for the whole file.
   */
  private PageWriter columnPageWriter(int column, ColumnDescriptor descriptor) {
    PageWriter pages = pageStore.getPageWriter(descriptor);
    if (!(compressor instanceof ZstdPageCompressor zstd)) {
      return pages;
    }
    if (columnLevels[column] == null) {
      columnLevels[column] = zstd.newColumn();
    }
    return zstd.pageWriterOf(pages, columnLevels[column]);
  }

  private void flushRowGroup() throws IOException {
    if (rowsInRowGroup > 0) {
      fileWriter.startBlock(rowsInRowGroup);
      for (ColumnChunkEncoder encoder : encoders) {
        if (encoder != null) {
          encoder.finish();
        }
      }
      if (columnStore != null) {
        columnStore.flush();
      }
      pageStore.flushToFileWriter(fileWriter);
      fileWriter.endBlock();
    }
    if (columnStore != null) {
      columnStore.close();
    }
    pageStore.close();
    Arrays.fill(encoders, null);
    columnStore = null;
    pageStore = null;
    rowsInRowGroup = 0;
    parquetAllocator.freeReleased();
  }

  private void releaseBuffers() {
    try {
      if (columnStore != null) {
        columnStore.close();
      }
      if (pageStore != null) {
        pageStore.close();
      }
    } finally {
      columnStore = null;
      pageStore = null;
      Arrays.fill(encoders, null);
      if (compressor instanceof ZstdPageCompressor own) {
        own.release();
      }
      codecs.release();
      parquetAllocator.freeAll();
    }
  }
}
