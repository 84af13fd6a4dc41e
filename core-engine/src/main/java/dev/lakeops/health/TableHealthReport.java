package dev.lakeops.health;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.PartitionSpec;

/**
 * A table's health at one snapshot: the table-wide signals, every partition's, the score, and what
 * the triggers need besides.
 *
 * @param table the table-wide signals
 * @param partitions every partition holding data or delete files, by spec id and path
 * @param score the health score
 * @param snapshotId the snapshot the report reflects; empty for a table without snapshots
 * @param expirableSnapshots snapshots beyond {@code retain-last} older than {@code
 *     expire.older-than} at evaluation time
 * @param largestSmallFileBatch the largest batch of small files one commit added since the last
 *     rewrite, if any commit added only small files
 * @param convergence what the recent compactions rewrote
 * @param kind how much metadata this evaluation read
 * @param specs the table's partition specs by id, to turn partitions into filters
 * @param lastCommit commit time of the current snapshot; empty for a table without snapshots
 */
public record TableHealthReport(
    TableHealth table,
    List<PartitionHealth> partitions,
    HealthScore score,
    Optional<Long> snapshotId,
    long expirableSnapshots,
    Optional<SmallFileBatch> largestSmallFileBatch,
    CompactionConvergence convergence,
    EvaluationKind kind,
    Map<Integer, PartitionSpec> specs,
    Optional<java.time.Instant> lastCommit) {

  public TableHealthReport {
    requireNonNull(table, "table is null");
    partitions = List.copyOf(requireNonNull(partitions, "partitions is null"));
    requireNonNull(score, "score is null");
    requireNonNull(snapshotId, "snapshotId is null");
    requireNonNull(largestSmallFileBatch, "largestSmallFileBatch is null");
    requireNonNull(convergence, "convergence is null");
    requireNonNull(kind, "kind is null");
    specs = Map.copyOf(requireNonNull(specs, "specs is null"));
    requireNonNull(lastCommit, "lastCommit is null");
  }
}
