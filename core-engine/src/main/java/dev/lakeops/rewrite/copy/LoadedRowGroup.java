package dev.lakeops.rewrite.copy;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.io.SeekableInputStream;

/**
 * A row group's column chunk bytes, read into memory in one piece.
 *
 * @param block the row group's metadata
 * @param bytes the file bytes from the first column chunk's start to the last one's end
 * @param fileOffset the file offset of {@code bytes[0]}
 * @param input what the row group's input file needs to fit the output schema
 */
record LoadedRowGroup(
    BlockMetaData block, byte[] bytes, long fileOffset, MergeLayout.InputLayout input) {
  LoadedRowGroup {
    requireNonNull(block, "block is null");
    requireNonNull(bytes, "bytes is null");
    requireNonNull(input, "input is null");
  }

  static LoadedRowGroup load(
      SeekableInputStream stream, BlockMetaData block, MergeLayout.InputLayout input)
      throws IOException {
    long start = Long.MAX_VALUE;
    long end = 0;
    for (ColumnChunkMetaData chunk : block.getColumns()) {
      start = Math.min(start, chunk.getStartingPos());
      end = Math.max(end, chunk.getStartingPos() + chunk.getTotalSize());
    }
    if (end - start > Integer.MAX_VALUE - 64) {
      throw new IOException("Row group of " + (end - start) + " bytes is too large to load");
    }
    byte[] bytes = new byte[(int) (end - start)];
    stream.seek(start);
    stream.readFully(bytes);
    return new LoadedRowGroup(block, bytes, start, input);
  }

  LoadedChunk chunk(int columnIndex) {
    ColumnChunkMetaData metaData = block.getColumns().get(columnIndex);
    return new LoadedChunk(
        metaData,
        bytes,
        (int) (metaData.getStartingPos() - fileOffset),
        (int) metaData.getTotalSize(),
        input.gainsDefinitionLevels(columnIndex));
  }

  long compressedSize() {
    return block.getCompressedSize();
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
   */
  record LoadedChunk(
      ColumnChunkMetaData metaData,
      byte[] bytes,
      int offset,
      int length,
      boolean addDefinitionLevels) {
    LoadedChunk {
      requireNonNull(metaData, "metaData is null");
      requireNonNull(bytes, "bytes is null");
    }
  }
}
