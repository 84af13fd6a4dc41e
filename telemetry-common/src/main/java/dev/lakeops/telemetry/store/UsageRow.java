package dev.lakeops.telemetry.store;

import dev.lakeops.telemetry.event.Clause;
import dev.lakeops.telemetry.event.PredicateKind;
import dev.lakeops.telemetry.event.ScanVolume;
import dev.lakeops.telemetry.event.TableName;
import java.time.Instant;
import java.util.Optional;

/** One column reference joined with its event, as read from a store. */
record UsageRow(
    String eventId,
    TableName table,
    String engine,
    Instant occurredAt,
    ScanVolume scanVolume,
    String column,
    Clause clause,
    Optional<PredicateKind> predicateKind) {}
