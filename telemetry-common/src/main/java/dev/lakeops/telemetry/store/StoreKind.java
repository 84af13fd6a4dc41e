package dev.lakeops.telemetry.store;

/** The database behind a telemetry store. */
public enum StoreKind {
  /** An embedded SQLite file: no server, one machine. The default. */
  SQLITE,
  /** A PostgreSQL database shared by many engines and machines. */
  POSTGRESQL
}
