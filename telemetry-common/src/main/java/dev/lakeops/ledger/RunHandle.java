package dev.lakeops.ledger;

/**
 * A run in progress. Exactly one of the three endings should be called; later calls are ignored, so
 * a {@code finally} may call {@link #abandoned} after the run already ended.
 */
public interface RunHandle {
  String runId();

  /** The run finished; {@code figures} says what it did. */
  void succeeded(RunFigures figures);

  /** The run failed with {@code error}; it may have committed {@code figures} before failing. */
  void failed(String error, RunFigures figures);

  /** The run was given up before finishing (shutdown), with nothing committed half-way. */
  void abandoned(String reason);
}
