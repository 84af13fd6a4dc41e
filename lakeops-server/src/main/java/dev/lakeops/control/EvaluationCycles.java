package dev.lakeops.control;

import static java.util.Objects.requireNonNull;

import dev.lakeops.health.ManifestReads;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Logs each evaluation cycle of the lake: a cycle ends once every table serve maintains was
 * evaluated since it began. The line gives the tables, the evaluations, the wall time and the
 * manifests read (an unchanged table costs none), e.g. {@code evaluation cycle 2: 5000 table(s),
 * 5210 evaluation(s) in 118.2 s, 412 manifest(s) read}.
 */
final class EvaluationCycles {
  private final DaemonLog log;
  private final ManifestReads reads;
  private final Set<TableIdentifier> seen = new HashSet<>();
  private int cycle = 1;
  private Instant started;
  private long readsAtStart;
  private long evaluations;

  EvaluationCycles(DaemonLog log, ManifestReads reads) {
    this.log = requireNonNull(log, "log is null");
    this.reads = requireNonNull(reads, "reads is null");
  }

  /** Counts an evaluation of {@code table}; {@code tables} is how many tables serve maintains. */
  void evaluated(TableIdentifier table, int tables, Instant now) {
    if (started == null) {
      started = now;
      readsAtStart = reads.total();
    }
    seen.add(table);
    evaluations++;
    if (seen.size() < tables) {
      return;
    }
    long read = reads.total();
    log.note(
        String.format(
            Locale.ROOT,
            "evaluation cycle %d: %d table(s), %d evaluation(s) in %.1f s, %d manifest(s) read",
            cycle,
            seen.size(),
            evaluations,
            Duration.between(started, now).toMillis() / 1000.0,
            read - readsAtStart));
    cycle++;
    seen.clear();
    evaluations = 0;
    started = now;
    readsAtStart = read;
  }

  /** A table no longer maintained does not hold its cycle back. */
  void forget(TableIdentifier table) {
    seen.remove(table);
  }
}
