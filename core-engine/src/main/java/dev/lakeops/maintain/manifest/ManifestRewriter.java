package dev.lakeops.maintain.manifest;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.Table;

/**
 * The entry point to rewrite manifests: packs the data manifest entries of the current snapshot
 * into manifests of the target size, per partition spec, so that planning opens few manifests. A
 * rewrite never leaves more manifests than the snapshot had: when packing cannot reduce them,
 * nothing is committed and the result says why.
 */
public final class ManifestRewriter {
  public ManifestRewriteResult rewrite(Table table, ManifestRewriteOptions options) {
    requireNonNull(table, "table is null");
    requireNonNull(options, "options is null");
    long started = System.nanoTime();
    ManifestRewritePlanner planner = new ManifestRewritePlanner(table, options);
    ManifestRewritePlan plan = planner.plan();
    if (options.dryRun() || plan.isEmpty()) {
      return new ManifestRewriteResult(
          table.name(),
          plan.manifestsBefore(),
          plan.manifestsBefore(),
          plan.isEmpty() ? 0 : plan.eligible().size(),
          0,
          OptionalLong.empty(),
          elapsedSince(started),
          options.dryRun(),
          plan.isEmpty() && !options.dryRun()
              ? Optional.of("fewer than two data manifests to pack")
              : Optional.empty());
    }
    Optional<String> refused =
        new ManifestRewriteCommitter(table)
            .commit(planner::eligible, options.targetManifestSize(), plan.manifestsBefore());
    if (refused.isPresent()) {
      return new ManifestRewriteResult(
          table.name(),
          plan.manifestsBefore(),
          plan.manifestsBefore(),
          0,
          0,
          OptionalLong.empty(),
          elapsedSince(started),
          false,
          refused);
    }
    table.refresh();
    Snapshot committed = table.currentSnapshot();
    Map<String, String> summary = committed.summary();
    return new ManifestRewriteResult(
        table.name(),
        plan.manifestsBefore(),
        committed.allManifests(table.io()).size(),
        count(summary, SnapshotSummary.REPLACED_MANIFESTS_COUNT),
        count(summary, SnapshotSummary.CREATED_MANIFESTS_COUNT),
        OptionalLong.of(committed.snapshotId()),
        elapsedSince(started),
        false,
        Optional.empty());
  }

  private static int count(Map<String, String> summary, String key) {
    String value = summary.get(key);
    return value == null ? 0 : Integer.parseInt(value);
  }

  private static Duration elapsedSince(long started) {
    return Duration.ofNanos(System.nanoTime() - started);
  }
}
