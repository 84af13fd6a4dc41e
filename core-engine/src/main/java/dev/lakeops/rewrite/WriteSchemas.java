package dev.lakeops.rewrite;

import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.types.Types;

/** The schema rewritten files are written with: the table's, plus row lineage on v3 tables. */
public final class WriteSchemas {
  private WriteSchemas() {}

  public static Schema forTable(Table table) {
    Schema schema = table.schema();
    if (TableUtil.formatVersion(table) < 3) {
      return schema;
    }
    List<Types.NestedField> fields = new ArrayList<>(schema.columns());
    fields.add(MetadataColumns.ROW_ID);
    fields.add(MetadataColumns.LAST_UPDATED_SEQUENCE_NUMBER);
    return new Schema(fields, schema.identifierFieldIds());
  }
}
