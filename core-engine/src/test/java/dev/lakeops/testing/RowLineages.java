package dev.lakeops.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;

/** The row lineage of a format v3 table's live rows, read through Iceberg's generic reader. */
public final class RowLineages {
  private RowLineages() {}

  /**
   * Each live row's {@code idColumn} value → its ({@code _row_id}, {@code
   * _last_updated_sequence_number}), null where the row has no lineage.
   */
  public static Map<Long, List<Long>> of(Table table, String idColumn) {
    Map<Long, List<Long>> lineage = new HashMap<>();
    try (CloseableIterable<Record> rows =
        IcebergGenerics.read(table)
            .project(MetadataColumns.schemaWithRowLineage(table.schema()))
            .build()) {
      for (Record row : rows) {
        Long rowId = (Long) row.getField(MetadataColumns.ROW_ID.name());
        Long sequence = (Long) row.getField(MetadataColumns.LAST_UPDATED_SEQUENCE_NUMBER.name());
        lineage.put((Long) row.getField(idColumn), Arrays.asList(rowId, sequence));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return lineage;
  }
}
