package dev.lakeops.rewrite.copy;

/**
 * The row lineage each input file of a merge hands to its rows where it does not store it (format
 * v3 tables).
 */
@FunctionalInterface
public interface InputLineage {
  /** For merges whose output has no lineage columns, or whose inputs all store lineage. */
  InputLineage NONE =
      index -> {
        throw new IllegalArgumentException(
            "Input "
                + index
                + " does not store row lineage and none was given: pass each input's first row id"
                + " and sequence number");
      };

  /** The lineage of input {@code index}, asked when a row group of it needs it. */
  RowLineage of(int index);
}
