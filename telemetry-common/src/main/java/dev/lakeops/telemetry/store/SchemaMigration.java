package dev.lakeops.telemetry.store;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * One step of the store schema. Statements are portable between SQLite and PostgreSQL.
 *
 * @param version the version the schema has after this step, starting at 1
 * @param description what the step does
 * @param statements the DDL to run, in order
 */
record SchemaMigration(int version, String description, List<String> statements) {
  SchemaMigration {
    requireNonNull(description, "description is null");
    statements = List.copyOf(requireNonNull(statements, "statements is null"));
  }
}
