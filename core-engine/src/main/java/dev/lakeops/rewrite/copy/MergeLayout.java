package dev.lakeops.rewrite.copy;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Set;
import org.apache.parquet.schema.MessageType;

/**
 * How files that agree with each other merge without decoding.
 *
 * @param outputSchema the merged file's Parquet schema: the inputs' columns, types and field ids,
 *     the table's current column names, and a column optional where any input has it optional
 * @param inputs what each input (in input order) needs to fit the output schema
 */
public record MergeLayout(MessageType outputSchema, List<InputLayout> inputs) {
  public MergeLayout {
    requireNonNull(outputSchema, "outputSchema is null");
    inputs = List.copyOf(requireNonNull(inputs, "inputs is null"));
  }

  /**
   * What one input needs to fit the output schema.
   *
   * @param sameColumnPaths whether its leaf column paths are the output's (no column renamed since
   *     it was written)
   * @param columnsGainingDefinitionLevels output leaf column indexes that are required in this
   *     input but optional in the output: its pages get an all-defined definition-level run
   * @param rowGroupsDerivingLineage indexes (in footer order) of its row groups that do not store
   *     row lineage (format v3) while the output does: the merge writes their {@code _row_id} and
   *     {@code _last_updated_sequence_number} chunks from the file's first row id and sequence
   *     number
   */
  public record InputLayout(
      boolean sameColumnPaths,
      Set<Integer> columnsGainingDefinitionLevels,
      Set<Integer> rowGroupsDerivingLineage) {
    public InputLayout {
      columnsGainingDefinitionLevels =
          Set.copyOf(
              requireNonNull(
                  columnsGainingDefinitionLevels, "columnsGainingDefinitionLevels is null"));
      rowGroupsDerivingLineage =
          Set.copyOf(requireNonNull(rowGroupsDerivingLineage, "rowGroupsDerivingLineage is null"));
    }

    /** An input whose row groups all store what the output needs (no lineage to derive). */
    public InputLayout(boolean sameColumnPaths, Set<Integer> columnsGainingDefinitionLevels) {
      this(sameColumnPaths, columnsGainingDefinitionLevels, Set.of());
    }

    /**
     * Whether its row groups fit the output byte for byte (apart from their codec), lineage aside:
     * see {@link #derivesLineage}.
     */
    public boolean fitsUnchanged() {
      return sameColumnPaths && columnsGainingDefinitionLevels.isEmpty();
    }

    /** Whether its row group {@code rowGroupIndex} fits the output byte for byte. */
    public boolean fitsUnchanged(int rowGroupIndex) {
      return fitsUnchanged() && !derivesLineage(rowGroupIndex);
    }

    /** Whether the merge writes the row lineage of its row group {@code rowGroupIndex}. */
    public boolean derivesLineage(int rowGroupIndex) {
      return rowGroupsDerivingLineage.contains(rowGroupIndex);
    }

    public boolean gainsDefinitionLevels(int columnIndex) {
      return columnsGainingDefinitionLevels.contains(columnIndex);
    }
  }
}
