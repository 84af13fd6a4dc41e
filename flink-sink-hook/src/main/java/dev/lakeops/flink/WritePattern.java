package dev.lakeops.flink;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The stream's write pattern over a sliding window: commits per minute and data files per commit.
 * Thread-safe; the compaction thread adds commits, Flink's metric reporters read the figures.
 */
final class WritePattern {
  private final Duration window;
  private final Instant startedAt;
  private final Deque<SnapshotWrites> commits = new ArrayDeque<>();

  WritePattern(Duration window, Instant startedAt) {
    this.window = window;
    this.startedAt = startedAt;
  }

  synchronized void add(SnapshotWrites commit) {
    commits.addLast(commit);
  }

  /** Commits in the window, per minute of the window (or of the run, while shorter). */
  synchronized double commitsPerMinute(Instant now) {
    evict(now);
    Duration covered = Duration.between(startedAt, now);
    if (covered.compareTo(window) > 0) {
      covered = window;
    }
    double minutes = Math.max(covered.toMillis(), 1_000) / 60_000.0;
    return commits.size() / minutes;
  }

  /** Mean data files per commit in the window; 0 without commits. */
  synchronized double filesPerCommit(Instant now) {
    evict(now);
    return commits.isEmpty()
        ? 0
        : commits.stream().mapToInt(SnapshotWrites::dataFiles).sum() / (double) commits.size();
  }

  private void evict(Instant now) {
    long cutoff = now.minus(window).toEpochMilli();
    while (!commits.isEmpty() && commits.peekFirst().timestampMillis() < cutoff) {
      commits.removeFirst();
    }
  }
}
