package dev.lakeops.telemetry.event;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** Builds events for tests. */
public final class TelemetryEvents {
  public static final TableName ORDERS = TableName.of("lake", "sales", "orders");
  public static final TableName CUSTOMERS = TableName.of("lake", "sales", "customers");
  public static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

  private static final AtomicLong QUERY_NUMBER = new AtomicLong();

  private TelemetryEvents() {}

  public static TelemetryEvent event(
      TableName table, Instant occurredAt, ScanVolume volume, ColumnReference... columns) {
    return event("trino", table, occurredAt, volume, columns);
  }

  public static TelemetryEvent event(
      String engine,
      TableName table,
      Instant occurredAt,
      ScanVolume volume,
      ColumnReference... columns) {
    return new TelemetryEvent(
        engine,
        table,
        "query-" + QUERY_NUMBER.incrementAndGet(),
        occurredAt,
        List.of(columns),
        volume);
  }

  /** An event on {@code table} now, with unknown volume. */
  public static TelemetryEvent filterEvent(
      TableName table, String column, PredicateKind predicateKind) {
    return event(table, NOW, ScanVolume.unknown(), ColumnReference.filter(column, predicateKind));
  }
}
