package dev.lakeops.verify;

/** A wrong writer, as tests install it through {@link WriterFaults} to prove verification works. */
public enum WriterFault {
  /** The writer loses a row of every batch it is handed. */
  DROPPED_ROW,
  /** The writer changes a value of every batch (the first non-null fixed-width value). */
  CHANGED_VALUE,
  /** The writer writes a null of every batch as a value. */
  LOST_NULL
}
