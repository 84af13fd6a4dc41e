package dev.lakeops.rewrite.copy;

import java.io.IOException;
import org.apache.iceberg.deletes.PositionDeleteIndex;

/** The row positions that position deletes remove from each input file of a merge. */
@FunctionalInterface
public interface InputDeletes {
  /** Inputs without deletes. */
  InputDeletes NONE = index -> PositionDeleteIndex.empty();

  /**
   * The deleted positions of input {@code index}, asked once, when the merge reaches that input,
   * and then asked in ascending order.
   */
  PositionDeleteIndex of(int index) throws IOException;
}
