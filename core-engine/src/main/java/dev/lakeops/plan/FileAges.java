package dev.lakeops.plan;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;

/**
 * Tells whether a data file was committed at least {@code min-age} before planning, from the commit
 * time of the snapshot whose sequence number the file carries as its file sequence number. Files of
 * format v1 tables (no sequence numbers) always count as old enough.
 */
final class FileAges {
  private static final FileAges ANY_AGE = new FileAges(Map.of(), Long.MAX_VALUE);

  private final Map<Long, Long> commitMillisBySequence;
  private final long cutoffMillis;

  private FileAges(Map<Long, Long> commitMillisBySequence, long cutoffMillis) {
    this.commitMillisBySequence = commitMillisBySequence;
    this.cutoffMillis = cutoffMillis;
  }

  static FileAges of(Table table, Snapshot planned, Duration minAge) {
    if (minAge.isZero()) {
      return ANY_AGE;
    }
    Map<Long, Long> commits = new HashMap<>();
    for (Snapshot snapshot : table.snapshots()) {
      commits.put(snapshot.sequenceNumber(), snapshot.timestampMillis());
    }
    return new FileAges(commits, System.currentTimeMillis() - minAge.toMillis());
  }

  boolean oldEnough(DataFile file) {
    if (cutoffMillis == Long.MAX_VALUE) {
      return true;
    }
    Long sequence = file.fileSequenceNumber();
    Long committed = sequence == null ? null : commitMillisBySequence.get(sequence);
    return committed == null || committed <= cutoffMillis;
  }
}
