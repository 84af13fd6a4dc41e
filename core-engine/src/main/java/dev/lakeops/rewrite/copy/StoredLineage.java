package dev.lakeops.rewrite.copy;

import static java.util.Objects.requireNonNull;

import java.util.HashSet;
import java.util.List;
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
 * _row_id}, {@code _last_updated_sequence_number} (files an earlier rewrite wrote). A row group
 * whose stored lineage is all null is derived like one without; a row group where it is partly null
 * (some rows stored, others derived) or whose statistics do not tell is not merged.
 *
 * @param stored whether the file has the two lineage columns
 * @param rowGroupsDeriving indexes (in footer order) of the row groups whose lineage the merge
 *     derives
 */
record StoredLineage(boolean stored, Set<Integer> rowGroupsDeriving) {
  StoredLineage {
    rowGroupsDeriving = Set.copyOf(requireNonNull(rowGroupsDeriving, "rowGroupsDeriving is null"));
  }

  /**
   * How {@code input} holds row lineage; problems (naming the file) are added to {@code problems}.
   */
  static StoredLineage of(InputFooter input, List<String> problems) {
    MessageType schema = input.footer().getFileMetaData().getSchema();
    List<BlockMetaData> blocks = input.footer().getBlocks();
    List<Type> fields = schema.getFields();
    long lineageFields = fields.stream().filter(LineageColumns::isLineage).count();
    if (lineageFields == 0) {
      Set<Integer> all = new HashSet<>();
      for (int index = 0; index < blocks.size(); index++) {
        all.add(index);
      }
      return new StoredLineage(false, all);
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
      return new StoredLineage(true, Set.of());
    }
    int leaves = schema.getColumns().size();
    Set<Integer> deriving = new HashSet<>();
    for (int index = 0; index < blocks.size(); index++) {
      BlockMetaData block = blocks.get(index);
      if (block.getRowCount() == 0 || block.getColumns().size() != leaves) {
        continue;
      }
      Definition rowIds = definition(block.getColumns().get(leaves - 2));
      Definition sequenceNumbers = definition(block.getColumns().get(leaves - 1));
      if (rowIds == Definition.ALL_NULL && sequenceNumbers == Definition.ALL_NULL) {
        deriving.add(index);
      } else if (rowIds != Definition.ALL_DEFINED || sequenceNumbers != Definition.ALL_DEFINED) {
        problems.add(
            file
                + " row group "
                + index
                + " stores row lineage for some rows only, or without null counts");
      }
    }
    return new StoredLineage(true, deriving);
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
