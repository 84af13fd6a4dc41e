package dev.lakeops.ledger;

import static java.util.Objects.requireNonNull;

/**
 * What is known when a run starts.
 *
 * @param catalog the catalog's name, e.g. {@code lakeops}
 * @param table the table's name within the catalog, {@code namespace.table}
 * @param operation what runs: {@code compact}, {@code expire-snapshots}, {@code
 *     remove-orphan-files}, {@code rewrite-manifests} (the CLI's command names)
 * @param reason why it runs, e.g. {@code day=2026-12-01: 41 small files >= 12}, or {@code
 *     requested} for a run a user asked for
 * @param host who started it
 * @param dryRun whether the run only plans and changes nothing
 */
public record RunStart(
    String catalog, String table, String operation, String reason, RunHost host, boolean dryRun) {
  /** The reason of runs a user or an engine asked for explicitly. */
  public static final String REQUESTED = "requested";

  public RunStart {
    requireNonNull(catalog, "catalog is null");
    requireNonNull(table, "table is null");
    requireNonNull(operation, "operation is null");
    requireNonNull(reason, "reason is null");
    requireNonNull(host, "host is null");
  }
}
