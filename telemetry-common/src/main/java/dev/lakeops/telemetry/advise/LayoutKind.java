package dev.lakeops.telemetry.advise;

/** The layout the advisor proposes. */
public enum LayoutKind {
  /** Sort by the advised columns, in order. */
  SORT,
  /** Interleave the advised columns with a Z-order curve. */
  ZORDER,
  /** Too little telemetry to advise anything; the explanation says why. */
  INSUFFICIENT_DATA
}
