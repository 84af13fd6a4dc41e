package dev.lakeops.rewrite.read;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.util.ContentFileUtil;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * Reads which rows of one data file its Parquet position-delete files delete, straight from the
 * files' {@code pos} column (and {@code file_path}, unless a delete file names only this data file)
 * through Parquet's column readers, into {@link SortedPositions}. Iceberg's generic delete loader
 * reads the same through a record reader built per delete file, with a Hadoop configuration parsed
 * per file; with a delete file per data file, as engines write them, that dominated the decoding
 * path. Delete files in other formats, encrypted ones and deletion vectors are left to Iceberg's
 * loader ({@link #reads}).
 */
final class ParquetPositionDeletes {
  private static final int FILE_PATH_ID = MetadataColumns.DELETE_FILE_PATH.fieldId();
  private static final int POS_ID = MetadataColumns.DELETE_FILE_POS.fieldId();

  private final ParquetInputFiles files;

  ParquetPositionDeletes(FileIO io) {
    this(new ParquetInputFiles(io));
  }

  ParquetPositionDeletes(ParquetInputFiles files) {
    this.files = requireNonNull(files, "files is null");
  }

  /**
   * Whether this reader takes every one of {@code deletes}: unencrypted Parquet position deletes.
   */
  static boolean reads(List<DeleteFile> deletes) {
    return deletes.stream()
        .allMatch(
            delete ->
                delete.content() == FileContent.POSITION_DELETES
                    && delete.format() == FileFormat.PARQUET
                    && delete.keyMetadata() == null);
  }

  /**
   * The positions of {@code dataFile} that {@code deletes} delete; empty when a delete file lacks
   * Iceberg's field ids and Iceberg's loader has to read it.
   */
  Optional<SortedPositions> read(String dataFile, List<DeleteFile> deletes) throws IOException {
    Positions positions = new Positions();
    for (DeleteFile delete : deletes) {
      if (!readInto(dataFile, delete, positions)) {
        return Optional.empty();
      }
    }
    return Optional.of(SortedPositions.of(positions.values, positions.count));
  }

  private boolean readInto(String dataFile, DeleteFile delete, Positions positions)
      throws IOException {
    try (ParquetFileReader reader =
        ParquetFileReader.open(files.open(delete), ParquetReadDefaults.readOptions())) {
      MessageType schema = reader.getFileMetaData().getSchema();
      Optional<Type> pathField = field(schema, FILE_PATH_ID);
      Optional<Type> posField = field(schema, POS_ID);
      if (pathField.isEmpty() || posField.isEmpty()) {
        return false;
      }
      boolean fileScoped = dataFile.equals(ContentFileUtil.referencedDataFileLocation(delete));
      List<Type> requested = new ArrayList<>();
      if (!fileScoped) {
        requested.add(pathField.get());
      }
      requested.add(posField.get());
      MessageType projection = new MessageType(schema.getName(), requested);
      reader.setRequestedSchema(projection);
      List<ColumnDescriptor> columns = projection.getColumns();
      ColumnDescriptor posColumn = columns.get(columns.size() - 1);
      Binary target = Binary.fromConstantByteArray(dataFile.getBytes(StandardCharsets.UTF_8));
      String createdBy = reader.getFileMetaData().getCreatedBy();
      for (BlockMetaData block : reader.getRowGroups()) {
        if (!fileScoped && !mayHold(block, columns.get(0), target)) {
          reader.skipNextRowGroup();
          continue;
        }
        PageReadStore rowGroup = reader.readNextRowGroup();
        try {
          ColumnReadStoreImpl store =
              new ColumnReadStoreImpl(
                  rowGroup, NoOpConverters.forFlatSchema(projection), projection, createdBy);
          ColumnReader pathReader = fileScoped ? null : store.getColumnReader(columns.get(0));
          ColumnReader posReader = store.getColumnReader(posColumn);
          readRows(rowGroup.getRowCount(), pathReader, posReader, target, positions);
        } finally {
          rowGroup.close();
        }
      }
      return true;
    }
  }

  private static void readRows(
      long rows, ColumnReader pathReader, ColumnReader posReader, Binary target, Positions into) {
    int pathDefined = pathReader == null ? 0 : pathReader.getDescriptor().getMaxDefinitionLevel();
    int posDefined = posReader.getDescriptor().getMaxDefinitionLevel();
    for (long row = 0; row < rows; row++) {
      boolean matches = true;
      if (pathReader != null) {
        matches =
            pathReader.getCurrentDefinitionLevel() == pathDefined
                && pathReader.getBinary().equals(target);
        pathReader.consume();
      }
      if (posReader.getCurrentDefinitionLevel() == posDefined) {
        long position = posReader.getLong();
        if (matches) {
          into.add(position);
        }
      }
      posReader.consume();
    }
  }

  /**
   * Whether a row group may hold rows of {@code target}, going by its {@code file_path} bounds
   * where Parquet trusts them.
   */
  private static boolean mayHold(BlockMetaData block, ColumnDescriptor path, Binary target) {
    for (ColumnChunkMetaData chunk : block.getColumns()) {
      if (Arrays.equals(chunk.getPath().toArray(), path.getPath())) {
        Statistics<?> statistics = chunk.getStatistics();
        if (statistics == null || statistics.isEmpty() || !statistics.hasNonNullValue()) {
          return true;
        }
        @SuppressWarnings("unchecked")
        Statistics<Binary> bounds = (Statistics<Binary>) statistics;
        return bounds.comparator().compare(bounds.genericGetMin(), target) <= 0
            && bounds.comparator().compare(bounds.genericGetMax(), target) >= 0;
      }
    }
    return true;
  }

  private static Optional<Type> field(MessageType schema, int fieldId) {
    return schema.getFields().stream()
        .filter(field -> field.getId() != null && field.getId().intValue() == fieldId)
        .filter(Type::isPrimitive)
        .findFirst();
  }

  /** A growable array of positions. */
  private static final class Positions {
    private long[] values = new long[64];
    private int count;

    void add(long position) {
      if (count == values.length) {
        values = Arrays.copyOf(values, values.length * 2);
      }
      values[count++] = position;
    }
  }
}
