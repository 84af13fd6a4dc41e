package dev.lakeops.rewrite.copy;

import java.util.Set;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;

/**
 * Whether a file's pages can lose deleted rows without decoding values, going by the encodings its
 * footer lists per column chunk: PLAIN and dictionary-encoded values, DELTA_LENGTH_BYTE_ARRAY
 * strings, DELTA_BINARY_PACKED integers (unpacked, as the row lineage LakeOps writes is), RLE or
 * bit-packed levels. A page that still turns out otherwise (RLE-encoded booleans list as RLE, as
 * levels do) is caught while filtering ({@link UnfilterablePageException}).
 */
final class FilterableEncodings {
  private static final Set<Encoding> FILTERABLE =
      Set.of(
          Encoding.PLAIN,
          Encoding.PLAIN_DICTIONARY,
          Encoding.RLE_DICTIONARY,
          Encoding.DELTA_LENGTH_BYTE_ARRAY,
          Encoding.DELTA_BINARY_PACKED,
          Encoding.RLE,
          Encoding.BIT_PACKED);

  private FilterableEncodings() {}

  static boolean allFilterable(ParquetMetadata footer) {
    for (BlockMetaData block : footer.getBlocks()) {
      for (ColumnChunkMetaData chunk : block.getColumns()) {
        if (!FILTERABLE.containsAll(chunk.getEncodings())) {
          return false;
        }
      }
    }
    return true;
  }
}
