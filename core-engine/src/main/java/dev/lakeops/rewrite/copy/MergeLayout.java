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
   */
  public record InputLayout(boolean sameColumnPaths, Set<Integer> columnsGainingDefinitionLevels) {
    public InputLayout {
      columnsGainingDefinitionLevels =
          Set.copyOf(
              requireNonNull(
                  columnsGainingDefinitionLevels, "columnsGainingDefinitionLevels is null"));
    }

    /** Whether its row groups fit the output byte for byte (apart from their codec). */
    public boolean fitsUnchanged() {
      return sameColumnPaths && columnsGainingDefinitionLevels.isEmpty();
    }

    public boolean gainsDefinitionLevels(int columnIndex) {
      return columnsGainingDefinitionLevels.contains(columnIndex);
    }
  }
}
