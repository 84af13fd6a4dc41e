package dev.lakeops.rewrite.copy;

import java.util.Optional;
import org.apache.iceberg.MetadataColumns;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.schema.Type;

/**
 * The two row lineage columns of format v3 ({@code _row_id}, {@code _last_updated_sequence_number})
 * as Parquet columns, recognised by their reserved field ids.
 */
public enum LineageColumns {
  ROW_ID(MetadataColumns.ROW_ID.fieldId()),
  LAST_UPDATED_SEQUENCE_NUMBER(MetadataColumns.LAST_UPDATED_SEQUENCE_NUMBER.fieldId());

  private final int fieldId;

  LineageColumns(int fieldId) {
    this.fieldId = fieldId;
  }

  public int fieldId() {
    return fieldId;
  }

  static boolean isLineage(Type field) {
    return of(field).isPresent();
  }

  static Optional<LineageColumns> of(Type field) {
    if (field.getId() == null) {
      return Optional.empty();
    }
    int id = field.getId().intValue();
    for (LineageColumns column : values()) {
      if (column.fieldId == id) {
        return Optional.of(column);
      }
    }
    return Optional.empty();
  }

  /** The lineage column a top-level leaf column is, if it is one. */
  static Optional<LineageColumns> of(ColumnDescriptor descriptor) {
    return descriptor.getPath().length == 1 ? of(descriptor.getPrimitiveType()) : Optional.empty();
  }
}
