package dev.lakeops.rewrite.copy;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;
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
   * @param derivedLineage by index (in footer order) of its row groups, the row lineage columns
   *     (format v3) it does not store, or stores all null, while the output stores them: the merge
   *     writes those chunks from the file's first row id and sequence number; row groups not listed
   *     have every lineage column the output has
   */
  public record InputLayout(
      boolean sameColumnPaths,
      Set<Integer> columnsGainingDefinitionLevels,
      Map<Integer, Set<LineageColumns>> derivedLineage) {
    public InputLayout {
      columnsGainingDefinitionLevels =
          Set.copyOf(
              requireNonNull(
                  columnsGainingDefinitionLevels, "columnsGainingDefinitionLevels is null"));
      derivedLineage = Map.copyOf(requireNonNull(derivedLineage, "derivedLineage is null"));
    }

    /** An input whose row groups all store what the output needs (no lineage to derive). */
    public InputLayout(boolean sameColumnPaths, Set<Integer> columnsGainingDefinitionLevels) {
      this(sameColumnPaths, columnsGainingDefinitionLevels, Map.of());
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

    /** Whether the merge writes some row lineage column of its row group {@code rowGroupIndex}. */
    public boolean derivesLineage(int rowGroupIndex) {
      return derivedLineage.containsKey(rowGroupIndex);
    }

    /** The lineage columns the merge writes for its row group {@code rowGroupIndex}. */
    public Set<LineageColumns> derivedLineage(int rowGroupIndex) {
      return derivedLineage.getOrDefault(rowGroupIndex, Set.of());
    }

    public boolean gainsDefinitionLevels(int columnIndex) {
      return columnsGainingDefinitionLevels.contains(columnIndex);
    }
  }
}
