package dev.lakeops.telemetry.store;

import dev.lakeops.telemetry.event.TableName;
import dev.lakeops.telemetry.event.TelemetryEvent;
import java.time.Instant;
import java.util.List;

/**
 * Where telemetry events are kept. Implementations are safe for concurrent use by many threads;
 * every method may block on I/O, so host query paths record through {@code TelemetryRecorder}
 * instead of calling a store directly.
 */
public interface TelemetryStore extends AutoCloseable {
  /** Writes all events in one transaction: either all are stored or none. */
  void append(List<TelemetryEvent> events);

  /** How many events the store holds. */
  long countEvents();

  /**
   * Deletes every event that occurred strictly before {@code cutoff}, with its column references.
   *
   * @return how many events were deleted
   */
  long deleteEventsOlderThan(Instant cutoff);

  /**
   * Usage of one table's columns, per column and clause; empty counts when nothing was recorded.
   */
  TableUsage usage(TableName table, UsageQuery query);

  /**
   * Usage of one table whatever the engines called it: events matched by the table's UUID,
   * location, or namespace and name ({@link TableMatch}), reported under {@code table.name()}, with
   * the names they were recorded as in {@link TableUsage#recordedAs()}.
   */
  TableUsage usage(TableMatch table, UsageQuery query);

  /** The distinct table names of the events in the query's window, ordered by name. */
  List<TableName> tableNames(UsageQuery query);

  /** Usage of every table with events in the query's window, ordered by table name. */
  List<TableUsage> usage(UsageQuery query);

  /** Releases the connection; safe to call twice. */
  @Override
  void close();
}
