package dev.lakeops.telemetry.store;

import static java.util.Objects.requireNonNull;

import dev.lakeops.telemetry.event.TableIdentity;
import dev.lakeops.telemetry.event.TableName;

/**
 * Which recorded events belong to one table, whatever each engine called its catalog. An event
 * matches when it carries the table's UUID; an event without a UUID matches when it carries the
 * table's location, or else when its namespace and table name equal the table's (ignoring case and
 * the catalog name). An event that carries a different UUID never matches: it read another table of
 * the same name, e.g. one dropped and created again.
 *
 * @param name the table's name; matched usage is reported under it
 * @param identity the table's UUID and location, when known
 */
public record TableMatch(TableName name, TableIdentity identity) {
  public TableMatch {
    requireNonNull(name, "name is null");
    requireNonNull(identity, "identity is null");
  }

  /** Matching by namespace and table name only. */
  public static TableMatch byName(TableName name) {
    return new TableMatch(name, TableIdentity.unknown());
  }
}
