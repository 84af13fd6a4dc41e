package dev.lakeops.operation;

/**
 * Inputs a host offers beyond the procedure contract, passed in {@link OperationArguments} under
 * these names: the CLI's {@code compact --telemetry-store} and {@code --min-age}, {@code
 * remove-orphan-files --force} and {@code maintain --verify}, and Spark's session telemetry store.
 * Each host spells them as it spells contract arguments ({@link Host#spell}).
 */
public final class HostSettings {
  /** The telemetry store the {@code auto} strategy reads: {@code sqlite:<path>} or a JDBC URL. */
  public static final String TELEMETRY_STORE = "telemetry_store";

  /** Leave data files committed less than this long ago alone (the rewrite option min-age). */
  public static final String MIN_AGE = "min_age";

  /** Accept an orphan cutoff below the safety floor. */
  public static final String FORCE = "force";

  private HostSettings() {}
}
