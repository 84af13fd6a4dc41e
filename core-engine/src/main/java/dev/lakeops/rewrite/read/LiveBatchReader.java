package dev.lakeops.rewrite.read;

import static java.util.Objects.requireNonNull;

import dev.lakeops.rewrite.EqualityResolvedTask;
import dev.lakeops.rewrite.LiveRowReader;
import dev.lakeops.rewrite.UnreadableDataFileException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.types.Types;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * Reads the live rows of data files as Arrow batches of a flat write schema. Parquet files are
 * decoded column by column straight into Arrow vectors ({@link ColumnarFileReader}), with position
 * deletes and deletion vectors skipped while decoding and Iceberg's projection rules applied by
 * field id (renamed, added and promoted columns; row lineage on v3 tables). A file that needs more
 * than that (equality deletes, encryption, no field ids, a column only a partition value or a
 * default can fill, an encoding the columnar decoders do not take, equality deletes resolved to
 * positions by the spilling anti-join) is read through {@link LiveRowReader} instead, with the same
 * result.
 */
public final class LiveBatchReader {
  private final Table table;
  private final Schema writeSchema;
  private final org.apache.arrow.vector.types.pojo.Schema batchSchema;
  private final LiveRowReader recordReader;
  private final List<ColumnTransfer> transfers;
  private final AtomicInteger columnarFiles = new AtomicInteger();
  private final AtomicInteger recordFiles = new AtomicInteger();
  private final AtomicLong pageDecodedChunks = new AtomicLong();
  private final PageDecodeBufferPool decodeBufferPool = new PageDecodeBufferPool();
  private final ParquetInputFiles inputFiles;
  private final TaskPositionDeletes positionDeletes;

  /**
   * @param batchSchema the Arrow schema of the batches: the write schema's columns first, in order;
   *     further columns are left for the caller to fill
   */
  public LiveBatchReader(
      Table table, Schema writeSchema, org.apache.arrow.vector.types.pojo.Schema batchSchema) {
    this.table = requireNonNull(table, "table is null");
    this.writeSchema = requireNonNull(writeSchema, "writeSchema is null");
    this.batchSchema = requireNonNull(batchSchema, "batchSchema is null");
    this.recordReader = new LiveRowReader(table, writeSchema);
    this.inputFiles = new ParquetInputFiles(table.io());
    this.positionDeletes = new TaskPositionDeletes(table, writeSchema, inputFiles);
    this.transfers =
        writeSchema.columns().stream().map(field -> ColumnTransfers.forType(field.type())).toList();
  }

  /** Opens {@code task}'s live rows; batches are allocated from {@code allocator}. */
  public LiveBatches open(FileScanTask task, BufferAllocator allocator) {
    requireNonNull(task, "task is null");
    requireNonNull(allocator, "allocator is null");
    if (task.file().format() == FileFormat.PARQUET) {
      Optional<LiveBatches> columnar = openColumnar(task, allocator);
      if (columnar.isPresent()) {
        columnarFiles.incrementAndGet();
        return columnar.get();
      }
    }
    recordFiles.incrementAndGet();
    return new RecordBatches(recordReader.openRows(task), transfers, batchSchema, allocator);
  }

  /** Files read by the columnar decoders so far. */
  public int columnarFiles() {
    return columnarFiles.get();
  }

  /**
   * Column chunks decoded page by page so far ({@link PageColumnDecoder}); the others of columnar
   * files went through Parquet's column readers.
   */
  public long pageDecodedChunks() {
    return pageDecodedChunks.get();
  }

  /** Files read through Iceberg generic records so far. */
  public int recordFiles() {
    return recordFiles.get();
  }

  private Optional<LiveBatches> openColumnar(FileScanTask task, BufferAllocator allocator) {
    if (task.file().keyMetadata() != null || task instanceof EqualityResolvedTask) {
      // encrypted files, and tasks whose equality deletes were resolved to positions (which only
      // the record path applies), are read as records
      return Optional.empty();
    }
    String location = task.file().location();
    Optional<PositionDeleteIndex> positions;
    try {
      positions = positionDeletes.read(task);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the position deletes of " + location, e);
    }
    if (positions.isEmpty()) {
      return Optional.empty();
    }
    ParquetFileReader file;
    ParquetReadOptions options = ParquetReadDefaults.readOptions();
    try {
      file = ParquetFileReader.open(inputFiles.open(task.file()), options);
    } catch (IOException | RuntimeException e) {
      throw UnreadableDataFileException.wrapIfRead(location, e);
    }
    try {
      Optional<Projection> projection = project(task, file.getFileMetaData().getSchema());
      if (projection.isEmpty()) {
        file.close();
        return Optional.empty();
      }
      return Optional.of(
          new ColumnarFileReader(
              location,
              file,
              options.getCodecFactory(),
              projection.get().requested(),
              projection.get().slots(),
              positions.get().isEmpty() ? null : positions.get(),
              batchSchema,
              allocator,
              pageDecodedChunks,
              decodeBufferPool));
    } catch (IOException | RuntimeException e) {
      try {
        file.close();
      } catch (IOException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e instanceof IOException io
          ? new UncheckedIOException("Cannot read " + location, io)
          : (RuntimeException) e;
    }
  }

  /**
   * Maps the write schema onto the file's columns by field id; empty when the record path must read
   * it.
   */
  private Optional<Projection> project(FileScanTask task, MessageType fileSchema) {
    Map<Integer, Type> fileColumns =
        fileSchema.getFields().stream()
            .filter(field -> field.getId() != null)
            .collect(
                Collectors.toMap(
                    field -> field.getId().intValue(), field -> field, (first, second) -> first));
    if (fileColumns.isEmpty()) {
      return Optional.empty();
    }
    Set<Integer> identitySources =
        task.spec().fields().stream()
            .filter(field -> field.transform().isIdentity())
            .map(PartitionField::sourceId)
            .collect(Collectors.toSet());
    Long firstRowId = task.file().firstRowId();
    Long fileSequence = task.file().fileSequenceNumber();
    List<Type> requested = new ArrayList<>();
    List<ColumnSlot> slots = new ArrayList<>();
    List<Types.NestedField> columns = writeSchema.columns();
    for (int index = 0; index < columns.size(); index++) {
      Types.NestedField column = columns.get(index);
      Optional<ColumnSlot.NullFill> lineage = lineageFill(column, firstRowId, fileSequence);
      boolean lineageColumn = MetadataColumns.isMetadataColumn(column.fieldId());
      if (lineageColumn && lineage.isEmpty()) {
        slots.add(ColumnSlot.nulls(index));
        continue;
      }
      Type fileColumn = fileColumns.get(column.fieldId());
      if (fileColumn == null) {
        if (!lineageColumn
            && (column.isRequired()
                || column.initialDefault() != null
                || identitySources.contains(column.fieldId()))) {
          return Optional.empty();
        }
        ColumnSlot missing = ColumnSlot.nulls(index);
        slots.add(lineage.map(missing::withNullFill).orElse(missing));
        continue;
      }
      if (!fileColumn.isPrimitive() || fileColumn.isRepetition(Type.Repetition.REPEATED)) {
        return Optional.empty();
      }
      Optional<ColumnDecoder> decoder =
          ColumnDecoders.forColumn(column.type(), fileColumn.asPrimitiveType());
      if (decoder.isEmpty()) {
        return Optional.empty();
      }
      requested.add(fileColumn);
      ColumnDescriptor descriptor = new MessageType("requested", fileColumn).getColumns().get(0);
      ColumnSlot slot =
          ColumnSlot.read(
              index,
              descriptor,
              decoder.get(),
              PageValueKind.forColumn(column.type(), fileColumn.asPrimitiveType()));
      slots.add(lineage.map(slot::withNullFill).orElse(slot));
    }
    return Optional.of(new Projection(new MessageType(fileSchema.getName(), requested), slots));
  }

  /**
   * Iceberg's row-lineage rules: ids from the file's first row id, sequence numbers from the
   * file's.
   */
  private static Optional<ColumnSlot.NullFill> lineageFill(
      Types.NestedField column, Long firstRowId, Long fileSequence) {
    if (column.fieldId() == MetadataColumns.ROW_ID.fieldId()) {
      return firstRowId == null
          ? Optional.empty()
          : Optional.of(new ColumnSlot.NullFill(firstRowId, true));
    }
    if (column.fieldId() == MetadataColumns.LAST_UPDATED_SEQUENCE_NUMBER.fieldId()) {
      return firstRowId == null || fileSequence == null
          ? Optional.empty()
          : Optional.of(new ColumnSlot.NullFill(fileSequence, false));
    }
    return Optional.empty();
  }

  private record Projection(MessageType requested, List<ColumnSlot> slots) {}
}
