package dev.lakeops.telemetry.advise;

import static java.util.Objects.requireNonNull;

import java.util.List;

/** A layout chosen from rankings, before it is explained. */
record LayoutProposal(LayoutKind layout, List<ColumnRanking> columns, double confidence) {
  LayoutProposal {
    requireNonNull(layout, "layout is null");
    columns = List.copyOf(requireNonNull(columns, "columns is null"));
  }
}
