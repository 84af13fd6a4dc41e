package dev.lakeops.telemetry.recorder;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Optional;

/**
 * How a {@link TelemetryRecorder} buffers and writes.
 *
 * @param queueCapacity events held in memory before new ones are dropped
 * @param maximumBatchSize events written in one transaction at most
 * @param flushInterval the longest an idle flusher waits before checking again; also the longest
 *     {@code close()} waits for the flusher to notice it
 * @param retention delete events older than this, when present
 * @param retentionCheckInterval how often retention runs, when it is enabled
 */
public record RecorderOptions(
    int queueCapacity,
    int maximumBatchSize,
    Duration flushInterval,
    Optional<Duration> retention,
    Duration retentionCheckInterval) {
  /** Events buffered in memory when nothing else is configured. */
  public static final int QUEUE_CAPACITY_DEFAULT = 10_000;

  /** Events per write transaction when nothing else is configured. */
  public static final int MAXIMUM_BATCH_SIZE_DEFAULT = 500;

  /** Idle wait of the flusher when nothing else is configured. */
  public static final Duration FLUSH_INTERVAL_DEFAULT = Duration.ofSeconds(1);

  /** Retention when nothing else is configured: 90 days. */
  public static final Duration RETENTION_DEFAULT = Duration.ofDays(90);

  /** How often retention runs when nothing else is configured. */
  public static final Duration RETENTION_CHECK_INTERVAL_DEFAULT = Duration.ofHours(1);

  public RecorderOptions {
    requirePositive(queueCapacity, "queueCapacity");
    requirePositive(maximumBatchSize, "maximumBatchSize");
    requirePositive(flushInterval, "flushInterval");
    requireNonNull(retention, "retention is null");
    retention.ifPresent(value -> requirePositive(value, "retention"));
    requirePositive(retentionCheckInterval, "retentionCheckInterval");
  }

  public static RecorderOptions defaults() {
    return new RecorderOptions(
        QUEUE_CAPACITY_DEFAULT,
        MAXIMUM_BATCH_SIZE_DEFAULT,
        FLUSH_INTERVAL_DEFAULT,
        Optional.of(RETENTION_DEFAULT),
        RETENTION_CHECK_INTERVAL_DEFAULT);
  }

  public RecorderOptions withQueueCapacity(int value) {
    return new RecorderOptions(
        value, maximumBatchSize, flushInterval, retention, retentionCheckInterval);
  }

  public RecorderOptions withMaximumBatchSize(int value) {
    return new RecorderOptions(
        queueCapacity, value, flushInterval, retention, retentionCheckInterval);
  }

  public RecorderOptions withFlushInterval(Duration value) {
    return new RecorderOptions(
        queueCapacity, maximumBatchSize, value, retention, retentionCheckInterval);
  }

  /** Keeps events for {@code value}; {@code Optional.empty()} keeps them forever. */
  public RecorderOptions withRetention(Optional<Duration> value) {
    return new RecorderOptions(
        queueCapacity, maximumBatchSize, flushInterval, value, retentionCheckInterval);
  }

  private static void requirePositive(int value, String name) {
    if (value <= 0) {
      throw new IllegalArgumentException("Recorder option " + name + " must be positive: " + value);
    }
  }

  private static void requirePositive(Duration value, String name) {
    requireNonNull(value, name + " is null");
    if (value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException("Recorder option " + name + " must be positive: " + value);
    }
  }
}
