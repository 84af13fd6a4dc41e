package dev.lakeops.flink;

import static java.util.Objects.requireNonNull;

import dev.lakeops.lock.LockOptions;
import dev.lakeops.operation.ContractDefaults;
import dev.lakeops.unit.ByteSize;
import dev.lakeops.verify.VerificationMode;
import java.io.Serializable;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * What the Flink hook compacts, when, and with what resources. Built by {@link
 * LakeOpsCompaction.Builder}; every option is checked once here.
 *
 * @param minNewFiles compact once this many small data files were added since the last compaction
 * @param smallFileThreshold a data file under this size is small; empty means 75% of the table's
 *     {@code write.target-file-size-bytes}, the core's own rule
 * @param minSmallBytes compact once the small data files added since the last compaction add up to
 *     this much, even below {@link #minNewFiles}; empty means the table's target file size
 * @param minDeleteFiles compact once this many delete files were added since the last compaction
 * @param minInterval at least this long between the starts of two compactions
 * @param maxPartitions with more affected partitions than this, compact the whole table instead of
 *     naming each partition in the {@code where} filter
 * @param memory the compaction's memory budget
 * @param rewriteOptions Iceberg {@code rewrite_data_files} options passed to the core verbatim
 * @param lockWait how long a compaction waits for another compactor's lock before skipping this
 *     checkpoint (it tries again after the next one)
 * @param leaseDuration the lock's lease; a crashed job blocks other compactors this long at most
 * @param closeTimeout how long a finishing job waits for a running compaction
 * @param telemetryStore where to record the write pattern, e.g. {@code sqlite:/var/lakeops/t.db};
 *     empty records nothing (the Flink metrics still show it)
 * @param verify how each rewritten file group is proved before its commit ({@code counts}, {@code
 *     checksum} or {@code off}); empty means the strategy's default
 */
public record CompactionHookOptions(
    int minNewFiles,
    Optional<ByteSize> smallFileThreshold,
    Optional<ByteSize> minSmallBytes,
    int minDeleteFiles,
    Duration minInterval,
    int maxPartitions,
    ByteSize memory,
    Map<String, String> rewriteOptions,
    Duration lockWait,
    Duration leaseDuration,
    Duration closeTimeout,
    Optional<String> telemetryStore,
    Optional<String> verify)
    implements Serializable {
  /** Twenty new small files: a few minutes of a typical one-writer stream with 10 s checkpoints. */
  public static final int MIN_NEW_FILES_DEFAULT = 20;

  /** Ten delete files (upserts, CDC) make reads merge enough to be worth a rewrite. */
  public static final int MIN_DELETE_FILES_DEFAULT = 10;

  /** At most one compaction start a minute, however fast the stream commits. */
  public static final Duration MIN_INTERVAL_DEFAULT = Duration.ofMinutes(1);

  /** Up to 64 partitions are named in the filter; beyond that the whole table is planned. */
  public static final int MAX_PARTITIONS_DEFAULT = 64;

  /** A job finishing waits up to five minutes for a running compaction. */
  public static final Duration CLOSE_TIMEOUT_DEFAULT = Duration.ofMinutes(5);

  public CompactionHookOptions {
    requirePositive(minNewFiles, "minNewFiles");
    requireNonNull(smallFileThreshold, "smallFileThreshold is null");
    smallFileThreshold.ifPresent(size -> requirePositive(size, "smallFileThreshold"));
    requireNonNull(minSmallBytes, "minSmallBytes is null");
    minSmallBytes.ifPresent(size -> requirePositive(size, "minSmallBytes"));
    requirePositive(minDeleteFiles, "minDeleteFiles");
    requireNotNegative(minInterval, "minInterval");
    requirePositive(maxPartitions, "maxPartitions");
    requireNonNull(memory, "memory is null");
    requirePositive(memory, "memory");
    rewriteOptions = Map.copyOf(requireNonNull(rewriteOptions, "rewriteOptions is null"));
    requireNotNegative(lockWait, "lockWait");
    requireNotNegative(leaseDuration, "leaseDuration");
    if (leaseDuration.isZero()) {
      throw new IllegalArgumentException("leaseDuration must be positive: " + leaseDuration);
    }
    requireNotNegative(closeTimeout, "closeTimeout");
    requireNonNull(telemetryStore, "telemetryStore is null");
    requireNonNull(verify, "verify is null");
    verify.ifPresent(VerificationMode::parse);
  }

  public static CompactionHookOptions defaults() {
    return new CompactionHookOptions(
        MIN_NEW_FILES_DEFAULT,
        Optional.empty(),
        Optional.empty(),
        MIN_DELETE_FILES_DEFAULT,
        MIN_INTERVAL_DEFAULT,
        MAX_PARTITIONS_DEFAULT,
        ContractDefaults.MEMORY_BUDGET,
        Map.of(),
        LockOptions.MAXIMUM_WAIT_DEFAULT,
        LockOptions.LEASE_DURATION_DEFAULT,
        CLOSE_TIMEOUT_DEFAULT,
        Optional.empty(),
        Optional.empty());
  }

  /** The lock options of the hook's compactions, owned by {@code flink} holders. */
  LockOptions lockOptions(String ownerLabel) {
    return LockOptions.defaults()
        .withOwnerLabel(ownerLabel)
        .withMaximumWait(lockWait)
        .withLeaseDuration(leaseDuration);
  }

  private static void requirePositive(int value, String name) {
    if (value <= 0) {
      throw new IllegalArgumentException(name + " must be positive: " + value);
    }
  }

  private static void requirePositive(ByteSize value, String name) {
    if (value.bytes() <= 0) {
      throw new IllegalArgumentException(name + " must be positive: " + value);
    }
  }

  private static void requireNotNegative(Duration value, String name) {
    requireNonNull(value, name + " is null");
    if (value.isNegative()) {
      throw new IllegalArgumentException(name + " must not be negative: " + value);
    }
  }

  /** {@link ByteSize} is not serializable: Flink ships the options as plain numbers. */
  private Object writeReplace() {
    return new SerializedForm(this);
  }

  private static final class SerializedForm implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final long UNSET = -1;

    private final int minNewFiles;
    private final long smallFileThresholdBytes;
    private final long minSmallBytes;
    private final int minDeleteFiles;
    private final Duration minInterval;
    private final int maxPartitions;
    private final long memoryBytes;
    private final Map<String, String> rewriteOptions;
    private final Duration lockWait;
    private final Duration leaseDuration;
    private final Duration closeTimeout;
    private final String telemetryStore;
    private final String verify;

    SerializedForm(CompactionHookOptions options) {
      this.minNewFiles = options.minNewFiles();
      this.smallFileThresholdBytes =
          options.smallFileThreshold().map(ByteSize::bytes).orElse(UNSET);
      this.minSmallBytes = options.minSmallBytes().map(ByteSize::bytes).orElse(UNSET);
      this.minDeleteFiles = options.minDeleteFiles();
      this.minInterval = options.minInterval();
      this.maxPartitions = options.maxPartitions();
      this.memoryBytes = options.memory().bytes();
      this.rewriteOptions = options.rewriteOptions();
      this.lockWait = options.lockWait();
      this.leaseDuration = options.leaseDuration();
      this.closeTimeout = options.closeTimeout();
      this.telemetryStore = options.telemetryStore().orElse(null);
      this.verify = options.verify().orElse(null);
    }

    private Object readResolve() {
      return new CompactionHookOptions(
          minNewFiles,
          size(smallFileThresholdBytes),
          size(minSmallBytes),
          minDeleteFiles,
          minInterval,
          maxPartitions,
          ByteSize.ofBytes(memoryBytes),
          rewriteOptions,
          lockWait,
          leaseDuration,
          closeTimeout,
          Optional.ofNullable(telemetryStore),
          Optional.ofNullable(verify));
    }

    private static Optional<ByteSize> size(long bytes) {
      return bytes == UNSET ? Optional.empty() : Optional.of(ByteSize.ofBytes(bytes));
    }
  }
}
