package dev.lakeops.rewrite.copy;

import static java.util.Objects.requireNonNull;

import dev.lakeops.rewrite.copy.LoadedRowGroup.LoadedChunk;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.schema.MessageType;

/**
 * Writes small row groups as one output row group; a single row group is copied whole when its
 * input fits the output unchanged and no row of it is deleted. Row lineage columns that a row group
 * does not store (format v3) are written from its derived lineage ({@link DerivedLineageChunks}).
 */
final class RowGroupCoalescer {
  private final ParquetFileWriter writer;
  private final MessageType schema;
  private final ColumnChunkConcatenator concatenator;
  private final MergeCounters counters;
  private final MergeSettings settings;
  private final DerivedLineageChunks lineageChunks;

  RowGroupCoalescer(
      ParquetFileWriter writer,
      MessageType schema,
      ColumnChunkConcatenator concatenator,
      MergeCounters counters,
      MergeSettings settings,
      DerivedLineageChunks lineageChunks) {
    this.writer = requireNonNull(writer, "writer is null");
    this.schema = requireNonNull(schema, "schema is null");
    this.concatenator = requireNonNull(concatenator, "concatenator is null");
    this.counters = requireNonNull(counters, "counters is null");
    this.settings = requireNonNull(settings, "settings is null");
    this.lineageChunks = requireNonNull(lineageChunks, "lineageChunks is null");
  }

  void write(List<LoadedRowGroup> rowGroups) throws IOException {
    if (rowGroups.isEmpty()) {
      return;
    }
    long rowCount = 0;
    for (LoadedRowGroup rowGroup : rowGroups) {
      rowCount += rowGroup.liveRowCount();
    }
    counters.rowCount += rowCount;
    counters.rowGroupsWritten++;
    if (rowGroups.size() == 1 && copiesWhole(rowGroups.get(0))) {
      LoadedRowGroup rowGroup = rowGroups.get(0);
      writer.appendRowGroup(
          new ByteArraySeekableInputStream(rowGroup.bytes(), rowGroup.fileOffset()),
          rowGroup.block(),
          false);
      counters.rowGroupsCopiedWhole++;
      counters.bytesCopiedVerbatim += rowGroup.compressedSize();
      return;
    }
    writer.startBlock(rowCount);
    List<ColumnDescriptor> columns = schema.getColumns();
    for (int columnIndex = 0; columnIndex < columns.size(); columnIndex++) {
      ColumnDescriptor descriptor = columns.get(columnIndex);
      Optional<LineageColumns> lineage = LineageColumns.of(descriptor);
      List<LoadedChunk> chunks = new ArrayList<>(rowGroups.size());
      for (LoadedRowGroup rowGroup : rowGroups) {
        Optional<RowLineage> derived = lineage.flatMap(rowGroup::derivedLineage);
        if (derived.isPresent()) {
          chunks.add(
              lineageChunks.chunk(
                  descriptor,
                  lineage.get(),
                  rowGroup.block().getRowCount(),
                  rowGroup.deletedRows(),
                  derived.get()));
        } else {
          chunks.add(rowGroup.chunk(columnIndex));
        }
      }
      concatenator.write(descriptor, chunks);
    }
    writer.endBlock();
  }

  private boolean copiesWhole(LoadedRowGroup rowGroup) {
    return rowGroup.deletedRows().isEmpty()
        && rowGroup.derivedLineage().isEmpty()
        && rowGroup.input().fitsUnchanged()
        && settings.keepsCodecOf(rowGroup.block());
  }
}
