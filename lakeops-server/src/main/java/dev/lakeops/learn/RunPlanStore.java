package dev.lakeops.learn;

import static java.util.Objects.requireNonNull;

import dev.lakeops.observe.StoreSession;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The planner's side of the ledger, in the store's {@code lakeops_run_plan} table: per run, the
 * plan it ran with and its predictions (written when it starts), then the path it took, the groups
 * it rewrote at once and its commit conflicts (written when it ends). Joined with {@code
 * lakeops_run} it is the history the planner learns from.
 */
public final class RunPlanStore implements RunHistory {
  private static final String INSERT =
      "INSERT INTO lakeops_run_plan (run_id, catalog_name, table_name, rewrite_path, cores, memory_share_bytes,"
          + " max_concurrent_groups, partial_progress, predicted_seconds, predicted_peak_memory_bytes, learned)"
          + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
  private static final String FINISH =
      "UPDATE lakeops_run_plan SET rewrite_path = ?, cores = ?, commit_conflicts = ? WHERE run_id = ?";
  private static final String HISTORY =
      "SELECT p.rewrite_path, r.started_at_millis, r.finished_at_millis, r.input_bytes, r.peak_memory_bytes,"
          + " p.cores, p.commit_conflicts, p.memory_share_bytes FROM lakeops_run r JOIN lakeops_run_plan p ON r.run_id = p.run_id"
          + " WHERE r.catalog_name = ? AND r.table_name = ? AND r.operation = 'compact' AND r.status = 'succeeded'"
          + " AND r.dry_run = 0 AND r.input_bytes > 0 AND p.commit_conflicts IS NOT NULL"
          + " ORDER BY r.started_at_millis DESC LIMIT ?";
  private static final String RECENT_CONFLICTS =
      "SELECT COALESCE(SUM(commit_conflicts), 0) FROM (SELECT commit_conflicts FROM lakeops_run"
          + " WHERE catalog_name = ? AND table_name = ? AND operation = 'compact' AND finished_at_millis IS NOT NULL"
          + " ORDER BY started_at_millis DESC LIMIT ?) recent";
  private static final String PREDICTIONS =
      "SELECT run_id, predicted_seconds, predicted_peak_memory_bytes FROM lakeops_run_plan WHERE run_id = ?";

  private static final System.Logger LOG = System.getLogger(RunPlanStore.class.getName());

  private final StoreSession store;
  private final String catalog;

  public RunPlanStore(StoreSession store, String catalog) {
    this.store = requireNonNull(store, "store is null");
    this.catalog = requireNonNull(catalog, "catalog is null");
  }

  /** Records the plan a run starts with; a store failure is logged, never thrown. */
  public void started(String runId, String table, RunPlan plan) {
    try {
      store.inTransaction(
          "record the plan of run " + runId,
          connection -> {
            try (PreparedStatement insert = connection.prepareStatement(INSERT)) {
              insert.setString(1, runId);
              insert.setString(2, catalog);
              insert.setString(3, table);
              insert.setString(4, plan.path().label());
              insert.setInt(5, plan.maxConcurrentGroups());
              insert.setLong(6, plan.memoryShare().bytes());
              insert.setInt(7, plan.maxConcurrentGroups());
              insert.setInt(8, plan.partialProgress() ? 1 : 0);
              insert.setDouble(9, plan.predictedDuration().toMillis() / 1000.0);
              insert.setLong(10, plan.predictedPeakMemory().bytes());
              insert.setInt(11, plan.learned() ? 1 : 0);
              insert.executeUpdate();
            }
            return null;
          });
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, e.getMessage());
    }
  }

  /** Records what a run did: the path it took, the groups it rewrote at once, its conflicts. */
  public void finished(String runId, RewritePath path, int cores, long commitConflicts) {
    try {
      store.inTransaction(
          "record the outcome of run " + runId,
          connection -> {
            try (PreparedStatement update = connection.prepareStatement(FINISH)) {
              update.setString(1, path.label());
              update.setInt(2, Math.max(1, cores));
              update.setLong(3, commitConflicts);
              update.setString(4, runId);
              update.executeUpdate();
            }
            return null;
          });
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, e.getMessage());
    }
  }

  @Override
  public List<RunObservation> compactions(String table, int limit) {
    return store.inTransaction(
        "read the compaction history of " + table,
        connection -> {
          try (PreparedStatement select = connection.prepareStatement(HISTORY)) {
            select.setString(1, catalog);
            select.setString(2, table);
            select.setInt(3, limit);
            List<RunObservation> runs = new ArrayList<>();
            try (ResultSet rows = select.executeQuery()) {
              while (rows.next()) {
                Instant started = Instant.ofEpochMilli(rows.getLong(2));
                runs.add(
                    new RunObservation(
                        table,
                        RewritePath.parse(rows.getString(1)),
                        started,
                        rows.getLong(4),
                        Duration.ofMillis(rows.getLong(3) - rows.getLong(2)),
                        rows.getLong(5),
                        Math.max(1, rows.getInt(6)),
                        rows.getLong(7),
                        rows.getLong(8)));
              }
            }
            return runs;
          }
        });
  }

  @Override
  public long recentCommitConflicts(String table, int limit) {
    return store.inTransaction(
        "read the commit conflicts of " + table,
        connection -> {
          try (PreparedStatement select = connection.prepareStatement(RECENT_CONFLICTS)) {
            select.setString(1, catalog);
            select.setString(2, table);
            select.setInt(3, limit);
            try (ResultSet rows = select.executeQuery()) {
              return rows.next() ? rows.getLong(1) : 0L;
            }
          }
        });
  }

  /** The predictions of the given runs, by run id (runs the planner did not size are absent). */
  public Map<String, Prediction> predictions(List<String> runIds) {
    return store.inTransaction(
        "read run predictions",
        connection -> {
          Map<String, Prediction> predictions = new HashMap<>();
          try (PreparedStatement select = connection.prepareStatement(PREDICTIONS)) {
            for (String runId : runIds) {
              select.setString(1, runId);
              try (ResultSet rows = select.executeQuery()) {
                if (rows.next()) {
                  predictions.put(runId, new Prediction(rows.getDouble(2), rows.getLong(3)));
                }
              }
            }
          }
          return predictions;
        });
  }

  /**
   * @param seconds predicted wall time
   * @param peakMemoryBytes predicted peak memory
   */
  public record Prediction(double seconds, long peakMemoryBytes) {}
}
