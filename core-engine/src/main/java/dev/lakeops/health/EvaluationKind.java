package dev.lakeops.health;

/** How much metadata an evaluation read. */
public enum EvaluationKind {
  /** The current snapshot was the one seen last time: no manifest was read. */
  UNCHANGED,
  /** Only the manifests of the snapshots committed since the last evaluation were read. */
  INCREMENTAL,
  /** Every manifest of the current snapshot was read. */
  FULL
}
