package dev.lakeops.observe;

import static java.util.Objects.requireNonNull;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Health samples kept in the store's {@code lakeops_health_sample} table, so a table's history
 * survives restarts and {@code lakeops report} can draw it without the daemon. A table's sample is
 * written when its score or file counts changed, or {@link #SAMPLE_INTERVAL} after its last one;
 * samples older than {@link #RETENTION} are deleted as new ones arrive. A failed write is logged
 * and dropped: health history never stops the daemon.
 */
public final class HealthHistory implements LakeObserver {
  /** A steady table is sampled at most this often. */
  public static final Duration SAMPLE_INTERVAL = Duration.ofMinutes(5);

  /** How long samples are kept. */
  public static final Duration RETENTION = Duration.ofDays(30);

  private static final System.Logger LOG = System.getLogger(HealthHistory.class.getName());
  private static final String INSERT =
      "INSERT INTO lakeops_health_sample (catalog_name, table_name, sampled_at_millis, health_score, worst_part,"
          + " data_files, small_files, delete_files, data_bytes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)";
  private static final String SELECT =
      "SELECT table_name, sampled_at_millis, health_score, worst_part, data_files, small_files, delete_files,"
          + " data_bytes FROM lakeops_health_sample WHERE catalog_name = ? AND table_name = ?"
          + " AND sampled_at_millis >= ? ORDER BY sampled_at_millis";
  private static final String EXPIRE =
      "DELETE FROM lakeops_health_sample WHERE sampled_at_millis < ?";

  private final StoreSession store;
  private final String catalog;
  private final Map<String, TableSample> lastWritten = new HashMap<>();

  public HealthHistory(StoreSession store, String catalog) {
    this.store = requireNonNull(store, "store is null");
    this.catalog = requireNonNull(catalog, "catalog is null");
  }

  @Override
  public synchronized void tableEvaluated(TableSample sample) {
    TableSample last = lastWritten.get(sample.table());
    if (last != null
        && sameFigures(last, sample)
        && sample.sampledAt().isBefore(last.sampledAt().plus(SAMPLE_INTERVAL))) {
      return;
    }
    try {
      append(sample);
      lastWritten.put(sample.table(), sample);
    } catch (RuntimeException e) {
      LOG.log(
          System.Logger.Level.WARNING,
          "Health sample of " + sample.table() + " not kept: " + e.getMessage());
    }
  }

  /** Writes one sample now and deletes samples past {@link #RETENTION}. */
  public void append(TableSample sample) {
    store.inTransaction(
        "keep a health sample of " + sample.table(),
        connection -> {
          try (PreparedStatement insert = connection.prepareStatement(INSERT);
              PreparedStatement expire = connection.prepareStatement(EXPIRE)) {
            insert.setString(1, catalog);
            insert.setString(2, sample.table());
            insert.setLong(3, sample.sampledAt().toEpochMilli());
            insert.setInt(4, sample.healthScore());
            insert.setString(5, sample.worstPart());
            insert.setLong(6, sample.dataFiles());
            insert.setLong(7, sample.smallFiles());
            insert.setLong(8, sample.deleteFiles());
            insert.setLong(9, sample.dataBytes());
            insert.executeUpdate();
            expire.setLong(1, sample.sampledAt().minus(RETENTION).toEpochMilli());
            expire.executeUpdate();
          }
          return null;
        });
  }

  /** A table's samples since {@code since}, oldest first. */
  public List<TableSample> samples(String table, Instant since) {
    return store.inTransaction(
        "read the health history of " + table,
        connection -> {
          try (PreparedStatement select = connection.prepareStatement(SELECT)) {
            select.setString(1, catalog);
            select.setString(2, table);
            select.setLong(3, since.toEpochMilli());
            List<TableSample> samples = new ArrayList<>();
            try (ResultSet rows = select.executeQuery()) {
              while (rows.next()) {
                samples.add(
                    new TableSample(
                        rows.getString(1),
                        Instant.ofEpochMilli(rows.getLong(2)),
                        rows.getInt(3),
                        rows.getString(4),
                        rows.getLong(5),
                        rows.getLong(6),
                        rows.getLong(7),
                        rows.getLong(8)));
              }
            }
            return samples;
          }
        });
  }

  private static boolean sameFigures(TableSample a, TableSample b) {
    return a.healthScore() == b.healthScore()
        && a.dataFiles() == b.dataFiles()
        && a.smallFiles() == b.smallFiles()
        && a.deleteFiles() == b.deleteFiles();
  }

  @Override
  public void tableRemoved(String table) {}

  @Override
  public void queueChanged(List<QueuedOperation> queue) {}

  @Override
  public void budgetChanged(BudgetUse budget) {}

  @Override
  public void runStarted(RunSummary run) {}

  @Override
  public void runFinished(RunSummary run) {}

  @Override
  public void lockSkipped(String table) {}
}
