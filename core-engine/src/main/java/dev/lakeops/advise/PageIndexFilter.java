package dev.lakeops.advise;

import static java.util.Objects.requireNonNull;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.expressions.Binder;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.InclusiveMetricsEvaluator;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.SeekableInputStream;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.parquet.format.ColumnIndex;
import org.apache.parquet.format.OffsetIndex;
import org.apache.parquet.format.PageLocation;
import org.apache.parquet.format.Util;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.internal.hadoop.metadata.IndexReference;

/**
 * What a reader that uses Parquet page indexes fetches of one row group for a filter: for each
 * filtered column with a column index, the pages whose min/max may match the filter (Iceberg's
 * {@link InclusiveMetricsEvaluator} on each page's bounds) give row ranges; the ranges of all
 * filtered columns are intersected; then, of every column chunk, the pages that overlap those rows
 * (by its offset index) plus its dictionary page. A chunk without an offset index counts whole, as
 * does a filtered column of a type whose Parquet bounds are not Iceberg's single-value encoding.
 */
final class PageIndexFilter {
  /** Iceberg types whose Parquet min/max bytes are Iceberg's single-value serialization. */
  private static final Set<Type.TypeID> SAME_BOUND_BYTES =
      EnumSet.of(
          Type.TypeID.BOOLEAN,
          Type.TypeID.INTEGER,
          Type.TypeID.LONG,
          Type.TypeID.FLOAT,
          Type.TypeID.DOUBLE,
          Type.TypeID.DATE,
          Type.TypeID.TIME,
          Type.TypeID.TIMESTAMP,
          Type.TypeID.STRING);

  private final Schema schema;
  private final Expression filter;
  private final Set<Integer> filteredFieldIds;

  PageIndexFilter(Schema schema, Expression filter) {
    this.schema = requireNonNull(schema, "schema is null");
    this.filter = requireNonNull(filter, "filter is null");
    this.filteredFieldIds = Binder.boundReferences(schema.asStruct(), List.of(filter), false);
  }

  /** The bytes of {@code rowGroup} a page-index reader fetches for the filter. */
  long bytesRead(InputFile file, BlockMetaData rowGroup) {
    try (SeekableInputStream stream = file.newStream()) {
      List<long[]> rows = List.of(new long[] {0, rowGroup.getRowCount()});
      for (ColumnChunkMetaData chunk : rowGroup.getColumns()) {
        Integer fieldId =
            chunk.getPrimitiveType().getId() == null
                ? null
                : chunk.getPrimitiveType().getId().intValue();
        if (fieldId != null && filteredFieldIds.contains(fieldId)) {
          rows = intersect(rows, matchingRows(stream, chunk, fieldId, rowGroup.getRowCount()));
        }
      }
      long bytes = 0;
      for (ColumnChunkMetaData chunk : rowGroup.getColumns()) {
        bytes += chunkBytes(stream, chunk, rows, rowGroup.getRowCount());
      }
      return bytes;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the page indexes of " + file.location(), e);
    }
  }

  private List<long[]> matchingRows(
      SeekableInputStream stream, ColumnChunkMetaData chunk, int fieldId, long rowCount)
      throws IOException {
    Types.NestedField field = schema.findField(fieldId);
    IndexReference columnIndexReference = chunk.getColumnIndexReference();
    IndexReference offsetIndexReference = chunk.getOffsetIndexReference();
    List<long[]> all = List.of(new long[] {0, rowCount});
    if (field == null
        || !field.type().isPrimitiveType()
        || !SAME_BOUND_BYTES.contains(field.type().typeId())
        || columnIndexReference == null
        || offsetIndexReference == null) {
      return all;
    }
    ColumnIndex columnIndex =
        Util.readColumnIndex(new ByteArrayInputStream(read(stream, columnIndexReference)));
    List<PageLocation> pages =
        Util.readOffsetIndex(new ByteArrayInputStream(read(stream, offsetIndexReference)))
            .getPage_locations();
    if (pages.size() != columnIndex.getNull_pagesSize()) {
      return all;
    }
    InclusiveMetricsEvaluator evaluator = new InclusiveMetricsEvaluator(schema, filter, false);
    List<long[]> matching = new ArrayList<>();
    for (int page = 0; page < pages.size(); page++) {
      long first = pages.get(page).getFirst_row_index();
      long end = page + 1 < pages.size() ? pages.get(page + 1).getFirst_row_index() : rowCount;
      if (evaluator.eval(pageAsFile(columnIndex, page, fieldId, end - first))) {
        if (!matching.isEmpty() && matching.get(matching.size() - 1)[1] == first) {
          matching.get(matching.size() - 1)[1] = end;
        } else {
          matching.add(new long[] {first, end});
        }
      }
    }
    return matching;
  }

  private static DataFile pageAsFile(ColumnIndex index, int page, int fieldId, long rows) {
    Map<Integer, Long> valueCounts = new HashMap<>();
    Map<Integer, Long> nullCounts = new HashMap<>();
    Map<Integer, ByteBuffer> lower = new HashMap<>();
    Map<Integer, ByteBuffer> upper = new HashMap<>();
    valueCounts.put(fieldId, rows);
    if (index.isSetNull_counts()) {
      nullCounts.put(fieldId, index.getNull_counts().get(page));
    }
    if (Boolean.TRUE.equals(index.getNull_pages().get(page))) {
      nullCounts.put(fieldId, rows);
    } else {
      lower.put(fieldId, index.getMin_values().get(page).duplicate());
      upper.put(fieldId, index.getMax_values().get(page).duplicate());
    }
    return DataFiles.builder(PartitionSpec.unpartitioned())
        .withPath("page-" + page + ".parquet")
        .withFormat(FileFormat.PARQUET)
        .withFileSizeInBytes(1)
        .withMetrics(new Metrics(rows, null, valueCounts, nullCounts, null, lower, upper))
        .build();
  }

  private static long chunkBytes(
      SeekableInputStream stream, ColumnChunkMetaData chunk, List<long[]> rows, long rowCount)
      throws IOException {
    if (rows.isEmpty()) {
      return 0;
    }
    IndexReference offsetIndexReference = chunk.getOffsetIndexReference();
    if (offsetIndexReference == null
        || (rows.size() == 1 && rows.get(0)[0] == 0 && rows.get(0)[1] == rowCount)) {
      return chunk.getTotalSize();
    }
    OffsetIndex offsetIndex =
        Util.readOffsetIndex(new ByteArrayInputStream(read(stream, offsetIndexReference)));
    List<PageLocation> pages = offsetIndex.getPage_locations();
    long bytes =
        pages.isEmpty() ? chunk.getTotalSize() : pages.get(0).getOffset() - chunk.getStartingPos();
    for (int page = 0; page < pages.size(); page++) {
      long first = pages.get(page).getFirst_row_index();
      long end = page + 1 < pages.size() ? pages.get(page + 1).getFirst_row_index() : rowCount;
      if (overlaps(rows, first, end)) {
        bytes += pages.get(page).getCompressed_page_size();
      }
    }
    return bytes;
  }

  private static boolean overlaps(List<long[]> rows, long first, long end) {
    for (long[] range : rows) {
      if (range[0] < end && first < range[1]) {
        return true;
      }
    }
    return false;
  }

  private static List<long[]> intersect(List<long[]> left, List<long[]> right) {
    List<long[]> result = new ArrayList<>();
    int leftIndex = 0;
    int rightIndex = 0;
    while (leftIndex < left.size() && rightIndex < right.size()) {
      long start = Math.max(left.get(leftIndex)[0], right.get(rightIndex)[0]);
      long end = Math.min(left.get(leftIndex)[1], right.get(rightIndex)[1]);
      if (start < end) {
        result.add(new long[] {start, end});
      }
      if (left.get(leftIndex)[1] < right.get(rightIndex)[1]) {
        leftIndex++;
      } else {
        rightIndex++;
      }
    }
    return result;
  }

  private static byte[] read(SeekableInputStream stream, IndexReference reference)
      throws IOException {
    byte[] bytes = new byte[reference.getLength()];
    stream.seek(reference.getOffset());
    int read = 0;
    while (read < bytes.length) {
      int count = stream.read(bytes, read, bytes.length - read);
      if (count < 0) {
        throw new IOException("Unexpected end of file reading a page index");
      }
      read += count;
    }
    return bytes;
  }
}
