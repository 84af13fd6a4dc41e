package dev.lakeops.ledger;

import static java.util.Objects.requireNonNull;

import dev.lakeops.telemetry.store.StoreConnections;
import dev.lakeops.telemetry.store.StoreLocation;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The run ledger in the {@code lakeops_run} table of a SQLite or PostgreSQL store (the telemetry
 * store's database and schema versions). One JDBC connection; calls from many threads take turns on
 * it; a broken connection is replaced on the next call. Writes that fail are reported through
 * {@link LedgerWarnings}, never thrown: the run they record goes on.
 */
public final class JdbcRunLedger implements RunLedger {
  private static final String INSERT =
      "INSERT INTO lakeops_run (run_id, catalog_name, table_name, operation, trigger_reason, host,"
          + " process, dry_run, started_at_millis, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
  private static final String FINISH =
      "UPDATE lakeops_run SET finished_at_millis = ?, status = ?, error = ?, input_files = ?,"
          + " output_files = ?, input_bytes = ?, output_bytes = ?, removed_delete_files = ?,"
          + " recompacted_bytes = ?, peak_memory_bytes = ?, snapshot_id = ?, commit_conflicts = ?,"
          + " commit_retries = ?, object_get_requests = ?, object_put_requests = ?,"
          + " object_head_requests = ?, object_list_requests = ?, object_delete_requests = ?,"
          + " object_other_requests = ?, object_bytes_read = ?, object_bytes_written = ?,"
          + " requests_in_flight_peak = ?, requests_in_flight_mean = ?, cpu_seconds = ?,"
          + " verification = ?, verified_rows = ?, verification_failures = ?"
          + " WHERE run_id = ? AND status = 'running'";
  private static final String SELECT =
      "SELECT run_id, catalog_name, table_name, operation, trigger_reason, host, process, dry_run,"
          + " started_at_millis, finished_at_millis, status, error, input_files, output_files,"
          + " input_bytes, output_bytes, removed_delete_files, recompacted_bytes,"
          + " peak_memory_bytes, snapshot_id, commit_conflicts, commit_retries,"
          + " object_get_requests, object_put_requests, object_head_requests,"
          + " object_list_requests, object_delete_requests, object_other_requests,"
          + " object_bytes_read, object_bytes_written, requests_in_flight_peak,"
          + " requests_in_flight_mean, cpu_seconds, verification, verified_rows,"
          + " verification_failures"
          + " FROM lakeops_run WHERE 1 = 1";

  private final StoreLocation location;
  private final Clock clock;
  private final ReentrantLock lock = new ReentrantLock();
  private Connection connection;
  private boolean closed;

  private JdbcRunLedger(StoreLocation location, Connection connection, Clock clock) {
    this.location = requireNonNull(location, "location is null");
    this.connection = requireNonNull(connection, "connection is null");
    this.clock = requireNonNull(clock, "clock is null");
  }

  /**
   * Connects to the store named {@code configuration} ({@code sqlite:FILE} or {@code
   * jdbc:postgresql://...}).
   */
  public static JdbcRunLedger open(String configuration) {
    return open(StoreLocation.parse(configuration), Clock.systemUTC());
  }

  /** Connects and brings the store's schema to the latest version. */
  public static JdbcRunLedger open(StoreLocation location, Clock clock) {
    try {
      return new JdbcRunLedger(location, StoreConnections.openMigrated(location), clock);
    } catch (RuntimeException e) {
      throw new RunLedgerException(
          "Cannot open the run ledger in store "
              + location.describe()
              + ": "
              + LedgerWarnings.oneLine(e),
          e);
    }
  }

  @Override
  public RunHandle start(RunStart start) {
    requireNonNull(start, "start is null");
    String runId = UUID.randomUUID().toString();
    Instant started = clock.instant();
    write(
        "record the start of " + start.operation() + " on " + start.table(),
        connection -> {
          try (PreparedStatement insert = connection.prepareStatement(INSERT)) {
            insert.setString(1, runId);
            insert.setString(2, start.catalog());
            insert.setString(3, start.table());
            insert.setString(4, start.operation());
            insert.setString(5, start.reason());
            insert.setString(6, start.host().label());
            insert.setString(7, ProcessIdentity.current());
            insert.setInt(8, start.dryRun() ? 1 : 0);
            insert.setLong(9, started.toEpochMilli());
            insert.setString(10, RunStatus.RUNNING.label());
            insert.executeUpdate();
          }
          return null;
        });
    return new JdbcRunHandle(runId, start);
  }

  @Override
  public boolean abandon(String runId, String reason) {
    Boolean changed =
        write(
            "abandon run " + runId,
            connection -> finish(connection, runId, RunStatus.ABANDONED, reason, RunFigures.NONE));
    return Boolean.TRUE.equals(changed);
  }

  @Override
  public List<RunRecord> list(RunQuery query) {
    requireNonNull(query, "query is null");
    StringBuilder sql = new StringBuilder(SELECT);
    List<Object> parameters = new ArrayList<>();
    query.catalog().ifPresent(value -> add(sql, parameters, " AND catalog_name = ?", value));
    query.table().ifPresent(value -> add(sql, parameters, " AND table_name = ?", value));
    query
        .since()
        .ifPresent(
            value -> add(sql, parameters, " AND started_at_millis >= ?", value.toEpochMilli()));
    query.status().ifPresent(value -> add(sql, parameters, " AND status = ?", value.label()));
    sql.append(" ORDER BY started_at_millis DESC, run_id LIMIT ").append(query.limit());
    List<RunRecord> rows =
        inTransaction(
            "list runs",
            connection -> {
              try (PreparedStatement select = connection.prepareStatement(sql.toString())) {
                for (int index = 0; index < parameters.size(); index++) {
                  select.setObject(index + 1, parameters.get(index));
                }
                List<RunRecord> result = new ArrayList<>();
                try (ResultSet rowsRead = select.executeQuery()) {
                  while (rowsRead.next()) {
                    result.add(read(rowsRead));
                  }
                }
                return result;
              }
            });
    return List.copyOf(rows);
  }

  @Override
  public String describe() {
    return location.describe();
  }

  @Override
  public Optional<StoreLocation> storeLocation() {
    return Optional.of(location);
  }

  @Override
  public void close() {
    lock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      if (connection != null) {
        connection.close();
      }
    } catch (SQLException e) {
      LedgerWarnings.warn(
          "cannot close the run ledger " + location.describe() + ": " + e.getMessage());
    } finally {
      connection = null;
      lock.unlock();
    }
  }

  private static void add(
      StringBuilder sql, List<Object> parameters, String condition, Object value) {
    sql.append(condition);
    parameters.add(value);
  }

  private Boolean finish(
      Connection connection, String runId, RunStatus status, String error, RunFigures figures)
      throws SQLException {
    try (PreparedStatement update = connection.prepareStatement(FINISH)) {
      update.setLong(1, clock.instant().toEpochMilli());
      update.setString(2, status.label());
      if (error == null) {
        update.setNull(3, Types.VARCHAR);
      } else {
        update.setString(3, error);
      }
      update.setLong(4, figures.inputFiles());
      update.setLong(5, figures.outputFiles());
      update.setLong(6, figures.inputBytes());
      update.setLong(7, figures.outputBytes());
      update.setLong(8, figures.removedDeleteFiles());
      update.setLong(9, figures.recompactedBytes());
      update.setLong(10, figures.peakMemoryBytes());
      if (figures.snapshotId().isPresent()) {
        update.setLong(11, figures.snapshotId().getAsLong());
      } else {
        update.setNull(11, Types.BIGINT);
      }
      update.setLong(12, figures.commitConflicts());
      update.setLong(13, figures.commitRetries());
      RunCost cost = figures.cost();
      update.setLong(14, cost.requests().get());
      update.setLong(15, cost.requests().put());
      update.setLong(16, cost.requests().head());
      update.setLong(17, cost.requests().list());
      update.setLong(18, cost.requests().delete());
      update.setLong(19, cost.requests().other());
      update.setLong(20, cost.bytesRead());
      update.setLong(21, cost.bytesWritten());
      update.setLong(22, cost.inFlightPeak());
      update.setDouble(23, cost.inFlightMean());
      update.setDouble(24, cost.cpuSeconds());
      if (figures.verification().isEmpty()) {
        update.setNull(25, Types.VARCHAR);
      } else {
        update.setString(25, figures.verification());
      }
      update.setLong(26, figures.verifiedRows());
      update.setLong(27, figures.verificationFailures());
      update.setString(28, runId);
      return update.executeUpdate() > 0;
    }
  }

  private static RunRecord read(ResultSet row) throws SQLException {
    RunStart start =
        new RunStart(
            row.getString(2),
            row.getString(3),
            row.getString(4),
            row.getString(5),
            RunHost.parse(row.getString(6)),
            row.getInt(8) != 0);
    long finished = row.getLong(10);
    Optional<Instant> finishedAt =
        row.wasNull() ? Optional.empty() : Optional.of(Instant.ofEpochMilli(finished));
    long snapshot = row.getLong(20);
    OptionalLong snapshotId = row.wasNull() ? OptionalLong.empty() : OptionalLong.of(snapshot);
    RunFigures figures =
        new RunFigures(
            row.getLong(13),
            row.getLong(14),
            row.getLong(15),
            row.getLong(16),
            row.getLong(17),
            row.getLong(18),
            row.getLong(19),
            snapshotId,
            row.getLong(21),
            row.getLong(22),
            readCost(row),
            Objects.requireNonNullElse(row.getString(34), ""),
            row.getLong(35),
            row.getLong(36));
    return new RunRecord(
        row.getString(1),
        start,
        row.getString(7),
        Instant.ofEpochMilli(row.getLong(9)),
        finishedAt,
        RunStatus.parse(row.getString(11)),
        Optional.ofNullable(row.getString(12)),
        figures);
  }

  /** The cost columns; 0 in rows written before the store had them. */
  private static RunCost readCost(ResultSet row) throws SQLException {
    return new RunCost(
        new ObjectRequests(
            row.getLong(23),
            row.getLong(24),
            row.getLong(25),
            row.getLong(26),
            row.getLong(27),
            row.getLong(28)),
        row.getLong(29),
        row.getLong(30),
        row.getLong(31),
        row.getDouble(32),
        row.getDouble(33));
  }

  /** Runs a write; a failure is a warning, not an exception. */
  private <T> T write(String action, SqlWork<T> work) {
    try {
      return inTransaction(action, work);
    } catch (RunLedgerException e) {
      LedgerWarnings.warn(e.getMessage());
      return null;
    }
  }

  private <T> T inTransaction(String action, SqlWork<T> work) {
    lock.lock();
    try {
      if (closed) {
        throw new RunLedgerException(
            "Cannot " + action + ": the run ledger " + location.describe() + " is closed", null);
      }
      if (connection == null) {
        connection = StoreConnections.open(location);
      }
      T result = work.run(connection);
      connection.commit();
      return result;
    } catch (SQLException | RuntimeException e) {
      if (e instanceof RunLedgerException ledgerException) {
        throw ledgerException;
      }
      discardIfBroken(e);
      throw new RunLedgerException(
          "Cannot "
              + action
              + " in the run ledger "
              + location.describe()
              + ": "
              + LedgerWarnings.oneLine(e),
          e);
    } finally {
      lock.unlock();
    }
  }

  private void discardIfBroken(Exception failure) {
    if (connection == null) {
      return;
    }
    try {
      connection.rollback();
      if (connection.isValid(2)) {
        return;
      }
    } catch (SQLException rollbackFailure) {
      failure.addSuppressed(rollbackFailure);
    }
    try {
      connection.close();
    } catch (SQLException closeFailure) {
      failure.addSuppressed(closeFailure);
    }
    connection = null;
  }

  @FunctionalInterface
  private interface SqlWork<T> {
    T run(Connection connection) throws SQLException;
  }

  /** Ends its run once; later endings are ignored. */
  private final class JdbcRunHandle implements RunHandle {
    private final String runId;
    private final RunStart start;
    private final AtomicBoolean ended = new AtomicBoolean();

    JdbcRunHandle(String runId, RunStart start) {
      this.runId = runId;
      this.start = start;
    }

    @Override
    public String runId() {
      return runId;
    }

    @Override
    public void succeeded(RunFigures figures) {
      end(RunStatus.SUCCEEDED, null, figures);
    }

    @Override
    public void failed(String error, RunFigures figures) {
      end(RunStatus.FAILED, requireNonNull(error, "error is null"), figures);
    }

    @Override
    public void abandoned(String reason) {
      end(RunStatus.ABANDONED, requireNonNull(reason, "reason is null"), RunFigures.NONE);
    }

    private void end(RunStatus status, String error, RunFigures figures) {
      requireNonNull(figures, "figures is null");
      if (ended.compareAndSet(false, true)) {
        write(
            "record the end of " + start.operation() + " on " + start.table(),
            connection -> finish(connection, runId, status, error, figures));
      }
    }
  }
}
