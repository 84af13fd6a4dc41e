package dev.lakeops.advise;

import static java.util.Objects.requireNonNull;

import dev.lakeops.telemetry.advise.LayoutKind;
import java.util.List;
import java.util.Locale;

/**
 * A layout the advisor weighs: a sort by columns in order, or a Z-order of columns.
 *
 * @param layout {@link LayoutKind#SORT} or {@link LayoutKind#ZORDER}
 * @param columns the sort keys in order, or the Z-order columns
 */
public record LayoutCandidate(LayoutKind layout, List<String> columns) {
  public LayoutCandidate {
    requireNonNull(layout, "layout is null");
    columns = List.copyOf(requireNonNull(columns, "columns is null"));
    if (layout == LayoutKind.INSUFFICIENT_DATA || columns.isEmpty()) {
      throw new IllegalArgumentException(
          "a layout candidate sorts or z-orders at least one column");
    }
  }

  /** {@code sort by user_id, ts} or {@code zorder by user_id, ts}. */
  public String description() {
    return layout.name().toLowerCase(Locale.ROOT) + " by " + String.join(", ", columns);
  }
}
