package dev.lakeops.health;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotChanges;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.Table;
import org.apache.iceberg.util.PropertyUtil;

/**
 * Measures {@link CompactionConvergence} over a table's last compactions: for each {@code replace}
 * snapshot that removed data files, the bytes it removed and how many of them an earlier {@code
 * replace} snapshot had written (found through the removed files' file sequence numbers). A
 * compaction whose new files average half the target size or more counts no bytes as recompacted:
 * merging the small outputs of earlier compactions into files of the target size (and one
 * remainder) is how a table fed by small commits converges. Each compaction is measured once and
 * remembered, so a poll reads only new compactions' manifests.
 */
final class ConvergenceMeter {
  /** Compactions measured: the most recent ones in the current snapshot's history. */
  static final int COMPACTIONS = 5;

  private final Map<Long, CompactionConvergence> measured = new HashMap<>();
  private final ManifestReads reads;

  ConvergenceMeter(ManifestReads reads) {
    this.reads = java.util.Objects.requireNonNull(reads, "reads is null");
  }

  /**
   * @param convergedFileBytes a compaction whose new files average this size or more converged
   */
  CompactionConvergence measure(Table table, List<Snapshot> ancestry, long convergedFileBytes) {
    Map<Long, Snapshot> bySequence = new HashMap<>();
    for (Snapshot snapshot : ancestry) {
      bySequence.put(snapshot.sequenceNumber(), snapshot);
    }
    int compactions = 0;
    long rewritten = 0;
    long recompacted = 0;
    Map<Long, CompactionConvergence> kept = new HashMap<>();
    for (Snapshot snapshot : ancestry) {
      if (compactions == COMPACTIONS) {
        break;
      }
      if (!SnapshotHistory.isRewrite(snapshot)
          || PropertyUtil.propertyAsLong(summaryOf(snapshot), SnapshotSummary.DELETED_FILES_PROP, 1)
              == 0) {
        continue;
      }
      CompactionConvergence one =
          measured.computeIfAbsent(
              snapshot.snapshotId(),
              ignored -> measureOne(table, snapshot, bySequence, convergedFileBytes));
      kept.put(snapshot.snapshotId(), one);
      compactions++;
      rewritten += one.rewrittenBytes();
      recompacted += one.recompactedBytes();
    }
    measured.keySet().retainAll(kept.keySet());
    return new CompactionConvergence(compactions, rewritten, recompacted);
  }

  private CompactionConvergence measureOne(
      Table table, Snapshot compaction, Map<Long, Snapshot> bySequence, long convergedFileBytes) {
    reads.add(PartitionTotals.writtenManifests(table, compaction));
    long rewritten = 0;
    long recompacted = 0;
    for (DataFile file :
        SnapshotChanges.builderFor(table).snapshot(compaction).build().removedDataFiles()) {
      rewritten += file.fileSizeInBytes();
      Long sequence = file.fileSequenceNumber();
      Snapshot writer = sequence == null ? null : bySequence.get(sequence);
      if (writer != null && SnapshotHistory.isRewrite(writer)) {
        recompacted += file.fileSizeInBytes();
      }
    }
    return new CompactionConvergence(
        1, rewritten, converged(compaction, convergedFileBytes) ? 0 : recompacted);
  }

  /** Whether the compaction's new data files average {@code convergedFileBytes} or more. */
  private static boolean converged(Snapshot compaction, long convergedFileBytes) {
    Map<String, String> summary = summaryOf(compaction);
    long added = PropertyUtil.propertyAsLong(summary, SnapshotSummary.ADDED_FILES_PROP, 0);
    long addedBytes = PropertyUtil.propertyAsLong(summary, SnapshotSummary.ADDED_FILE_SIZE_PROP, 0);
    return added > 0 && addedBytes / added >= convergedFileBytes;
  }

  private static Map<String, String> summaryOf(Snapshot snapshot) {
    return snapshot.summary() == null ? Map.of() : snapshot.summary();
  }
}
