package dev.lakeops.rewrite.copy;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.util.Optional;
import java.util.Set;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.io.SeekableInputStream;

/**
 * A row group's column chunk bytes, read into memory in one piece.
 *
 * @param block the row group's metadata
 * @param bytes holds the file bytes from the first column chunk's start to the last one's end
 *     (alone, or at some offset of a {@link RowGroupArena}'s array)
 * @param fileOffset the file offset {@code bytes[0]} stands for: a chunk starting at file offset
 *     {@code p} is at {@code bytes[p - fileOffset]}
 * @param input what the row group's input file needs to fit the output schema
 * @param deletedRows the row group's rows that position deletes remove
 * @param derivedLineage where the merge writes some of the row group's lineage columns (format v3)
 *     rather than copying them: which, and the lineage of its first row
 */
record LoadedRowGroup(
    BlockMetaData block,
    byte[] bytes,
    long fileOffset,
    MergeLayout.InputLayout input,
    DeletedRows deletedRows,
    Optional<DerivedLineage> derivedLineage) {
  LoadedRowGroup {
    requireNonNull(block, "block is null");
    requireNonNull(bytes, "bytes is null");
    requireNonNull(input, "input is null");
    requireNonNull(deletedRows, "deletedRows is null");
    requireNonNull(derivedLineage, "derivedLineage is null");
  }

  /** The bytes of {@code block} from its first column chunk's start to its last one's end. */
  static long byteLength(BlockMetaData block) {
    return end(block) - start(block);
  }

  static LoadedRowGroup load(
      SeekableInputStream stream,
      BlockMetaData block,
      MergeLayout.InputLayout input,
      DeletedRows deletedRows,
      Optional<DerivedLineage> derivedLineage)
      throws IOException {
    long length = byteLength(block);
    if (length > Integer.MAX_VALUE - 64) {
      throw new IOException("Row group of " + length + " bytes is too large to load");
    }
    long start = start(block);
    byte[] bytes = new byte[(int) length];
    stream.seek(start);
    stream.readFully(bytes);
    return new LoadedRowGroup(block, bytes, start, input, deletedRows, derivedLineage);
  }

  /**
   * Loads {@code block} into {@code arena}, which must fit it ({@link RowGroupArena#fits}); the row
   * group is valid until the arena is reset.
   */
  static LoadedRowGroup loadInto(
      SeekableInputStream stream,
      BlockMetaData block,
      MergeLayout.InputLayout input,
      DeletedRows deletedRows,
      Optional<DerivedLineage> derivedLineage,
      RowGroupArena arena)
      throws IOException {
    int length = (int) byteLength(block);
    int offset = arena.reserve(length);
    long start = start(block);
    stream.seek(start);
    stream.readFully(arena.bytes(), offset, length);
    // bytes[0] stands for file offset start - offset: chunk offsets and positions stay file-based
    return new LoadedRowGroup(
        block, arena.bytes(), start - offset, input, deletedRows, derivedLineage);
  }

  private static long start(BlockMetaData block) {
    long start = Long.MAX_VALUE;
    for (ColumnChunkMetaData chunk : block.getColumns()) {
      start = Math.min(start, chunk.getStartingPos());
    }
    return start;
  }

  private static long end(BlockMetaData block) {
    long end = 0;
    for (ColumnChunkMetaData chunk : block.getColumns()) {
      end = Math.max(end, chunk.getStartingPos() + chunk.getTotalSize());
    }
    return end;
  }

  LoadedChunk chunk(int columnIndex) {
    ColumnChunkMetaData metaData = block.getColumns().get(columnIndex);
    return new LoadedChunk(
        metaData,
        bytes,
        (int) (metaData.getStartingPos() - fileOffset),
        (int) metaData.getTotalSize(),
        input.gainsDefinitionLevels(columnIndex),
        deletedRows,
        false);
  }

  /**
   * The lineage columns the merge writes for a row group, from the lineage of its first row.
   *
   * @param firstRow the lineage of the row group's first row (deleted or not)
   * @param columns the lineage columns to write rather than copy
   */
  record DerivedLineage(RowLineage firstRow, Set<LineageColumns> columns) {
    DerivedLineage {
      requireNonNull(firstRow, "firstRow is null");
      columns = Set.copyOf(requireNonNull(columns, "columns is null"));
    }
  }

  /** The derived lineage for {@code column} of this row group, if the merge writes it. */
  Optional<RowLineage> derivedLineage(LineageColumns column) {
    return derivedLineage
        .filter(derived -> derived.columns().contains(column))
        .map(DerivedLineage::firstRow);
  }

  long compressedSize() {
    return block.getCompressedSize();
  }

  /** Rows left once the deleted ones are removed. */
  long liveRowCount() {
    return block.getRowCount() - deletedRows.deletedCount();
  }

  /**
   * One column chunk inside a loaded row group.
   *
   * @param metaData the chunk's metadata
   * @param bytes the loaded row group bytes
   * @param offset where the chunk starts in {@code bytes}
   * @param length the chunk's length
   * @param addDefinitionLevels whether its pages gain definition levels (required in the input,
   *     optional in the output)
   * @param deletedRows the rows its pages lose
   * @param derived whether the merge built the chunk itself (row lineage an input does not store)
   *     rather than loading it: its pages are written, not copied
   */
  record LoadedChunk(
      ColumnChunkMetaData metaData,
      byte[] bytes,
      int offset,
      int length,
      boolean addDefinitionLevels,
      DeletedRows deletedRows,
      boolean derived) {
    LoadedChunk {
      requireNonNull(metaData, "metaData is null");
      requireNonNull(bytes, "bytes is null");
      requireNonNull(deletedRows, "deletedRows is null");
    }
  }
}
