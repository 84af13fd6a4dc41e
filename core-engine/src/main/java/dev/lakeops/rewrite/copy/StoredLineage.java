package dev.lakeops.rewrite.copy;

import static java.util.Objects.requireNonNull;

import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

/**
 * How one input file of a format v3 table holds row lineage: not at all (the common case: readers
 * derive it from the file's first row id and sequence number), or as its last two columns {@code
 * _row_id}, {@code _last_updated_sequence_number} (files an earlier rewrite wrote, or rows an
 * update carried over). Per row group and column, stored lineage all null is derived like missing
 * lineage (Spark's updates store {@code _row_id} and leave the sequence number null); stored
 * lineage that is partly null (some rows stored, others derived), or whose statistics do not tell,
 * is not merged.
 *
 * @param derived by row group index (in footer order), the lineage columns the merge derives; row
 *     groups not listed have both stored
 */
record StoredLineage(Map<Integer, Set<LineageColumns>> derived) {
  private static final Set<LineageColumns> BOTH = EnumSet.allOf(LineageColumns.class);

  StoredLineage {
    derived = Map.copyOf(requireNonNull(derived, "derived is null"));
  }

  /**
   * How {@code input} holds row lineage; problems (naming the file) are added to {@code problems}.
   */
  static StoredLineage of(InputFooter input, List<String> problems) {
    MessageType schema = input.footer().getFileMetaData().getSchema();
    List<BlockMetaData> blocks = input.footer().getBlocks();
    List<Type> fields = schema.getFields();
    Map<Integer, Set<LineageColumns>> derived = new HashMap<>();
    if (fields.stream().noneMatch(LineageColumns::isLineage)) {
      for (int index = 0; index < blocks.size(); index++) {
        derived.put(index, BOTH);
      }
      return new StoredLineage(derived);
    }
    String file = "input " + input.location();
    int count = fields.size();
    if (count < 2
        || !isStoredAs(fields.get(count - 2), LineageColumns.ROW_ID)
        || !isStoredAs(fields.get(count - 1), LineageColumns.LAST_UPDATED_SEQUENCE_NUMBER)) {
      problems.add(
          file
              + " stores row lineage other than as its last two columns, int64 _row_id and"
              + " _last_updated_sequence_number");
      return new StoredLineage(Map.of());
    }
    int leaves = schema.getColumns().size();
    for (int index = 0; index < blocks.size(); index++) {
      BlockMetaData block = blocks.get(index);
      if (block.getRowCount() == 0 || block.getColumns().size() != leaves) {
        continue;
      }
      Set<LineageColumns> columns = EnumSet.noneOf(LineageColumns.class);
      for (LineageColumns column : LineageColumns.values()) {
        ColumnChunkMetaData chunk = block.getColumns().get(leaves - 2 + column.ordinal());
        Definition definition = definition(chunk);
        if (definition == Definition.ALL_NULL) {
          columns.add(column);
        } else if (definition != Definition.ALL_DEFINED) {
          problems.add(
              file
                  + " row group "
                  + index
                  + " stores "
                  + chunk.getPath().toDotString()
                  + (definition == Definition.PARTLY_NULL
                      ? " for some rows only"
                      : " without a null count"));
        }
      }
      if (!columns.isEmpty()) {
        derived.put(index, columns);
      }
    }
    return new StoredLineage(derived);
  }

  private static boolean isStoredAs(Type field, LineageColumns column) {
    return field.isPrimitive()
        && field.getId() != null
        && field.getId().intValue() == column.fieldId()
        && field.getRepetition() != Type.Repetition.REPEATED
        && field.asPrimitiveType().getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.INT64
        && field.getLogicalTypeAnnotation() == null;
  }

  private static Definition definition(ColumnChunkMetaData chunk) {
    Statistics<?> statistics = chunk.getStatistics();
    if (statistics == null || !statistics.isNumNullsSet()) {
      return Definition.UNKNOWN;
    }
    if (statistics.getNumNulls() == 0) {
      return Definition.ALL_DEFINED;
    }
    return statistics.getNumNulls() == chunk.getValueCount()
        ? Definition.ALL_NULL
        : Definition.PARTLY_NULL;
  }

  private enum Definition {
    ALL_DEFINED,
    ALL_NULL,
    PARTLY_NULL,
    UNKNOWN
  }
}
