package dev.lakeops.rewrite.arrow;

import static java.util.Objects.requireNonNull;

import dev.lakeops.memory.ArrowByteBufferAllocator;
import dev.lakeops.rewrite.ParquetWriteSettings;
import java.io.IOException;
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
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.values.factory.DefaultV1ValuesWriterFactory;
import org.apache.parquet.hadoop.CodecFactory;
import org.apache.parquet.hadoop.ColumnChunkPageWriteStore;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.schema.MessageType;

/**
 * Writes Arrow batches of a flat schema to one Parquet file, column by column, with Iceberg field
 * ids in the Parquet schema. Page and row-group buffers come from an Arrow allocator, so they count
 * against the memory budget; a row group is flushed early when the allocator nears its limit.
 */
public final class ArrowParquetFileWriter implements AutoCloseable {
  private static final double FLUSH_AT_BUDGET_FRACTION = 0.5;

  private final Schema schema;
  private final MessageType parquetSchema;
  private final List<ColumnDescriptor> columns;
  private final List<ColumnTransfer> transfers;
  private final ParquetWriteSettings settings;
  private final BufferAllocator allocator;
  private final ArrowByteBufferAllocator parquetAllocator;
  private final ParquetProperties properties;
  private final CodecFactory codecs;
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
      Schema schema, ParquetWriteSettings settings, OutputFile output, BufferAllocator allocator,
      Set<String> plainColumns)
      throws IOException {
    this.schema = requireNonNull(schema, "schema is null");
    this.settings = requireNonNull(settings, "settings is null");
    this.allocator = requireNonNull(allocator, "allocator is null");
    this.parquetSchema = ParquetSchemaUtil.convert(schema, "table");
    this.columns = parquetSchema.getColumns();
    this.transfers =
        schema.columns().stream()
            .map(field -> ColumnTransfers.forType(field.type(), parquetSchema.getType(field.name()).asPrimitiveType()))
            .toList();
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
    settings.compressionLevel().ifPresent(level -> {
      configuration.set("parquet.compression.codec.zstd.level", level);
      configuration.set("zlib.compress.level", level);
    });
    this.codecs = new CodecFactory(configuration, settings.pageSizeBytes());
    this.rowGroupSizeBytes =
        Math.max(1 << 20, Math.min(settings.rowGroupSizeBytes(), (long) (allocator.getLimit() * FLUSH_AT_BUDGET_FRACTION)));
    this.fileWriter =
        new ParquetFileWriter(
            new IcebergOutputFileAdapter(output),
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
    for (int column = 0; column < transfers.size(); column++) {
      FieldVector vector = batch.getVector(column);
      ColumnWriter writer = columnStore.getColumnWriter(columns.get(column));
      transfers.get(column).writeColumn(vector, rowCount, writer, columns.get(column).getMaxDefinitionLevel());
    }
    for (int row = 0; row < rowCount; row++) {
      columnStore.endRecord();
    }
    rowsInRowGroup += rowCount;
    rows += rowCount;
    if (columnStore.getBufferedSize() >= rowGroupSizeBytes
        || allocator.getAllocatedMemory() >= allocator.getLimit() * FLUSH_AT_BUDGET_FRACTION) {
      flushRowGroup();
      startRowGroup();
    }
  }

  /** Bytes written so far plus bytes buffered for the current row group. */
  public long length() throws IOException {
    return fileWriter.getPos() + (columnStore == null ? 0 : columnStore.getBufferedSize());
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
            codecs.getCompressor(settings.codec()),
            parquetSchema,
            parquetAllocator,
            properties.getColumnIndexTruncateLength(),
            properties.getPageWriteChecksumEnabled());
    columnStore = properties.newColumnWriteStore(parquetSchema, pageStore, pageStore);
    rowsInRowGroup = 0;
  }

  private void flushRowGroup() throws IOException {
    if (rowsInRowGroup > 0) {
      fileWriter.startBlock(rowsInRowGroup);
      columnStore.flush();
      pageStore.flushToFileWriter(fileWriter);
      fileWriter.endBlock();
    }
    columnStore.close();
    pageStore.close();
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
      codecs.release();
      parquetAllocator.freeAll();
    }
  }
}
