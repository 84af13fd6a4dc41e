package dev.lakeops.policy;

import static java.util.Objects.requireNonNull;

import dev.lakeops.compact.Strategy;
import dev.lakeops.health.HealthCriteria;
import dev.lakeops.health.SmallFileRule;
import dev.lakeops.plan.RewriteOptions;
import dev.lakeops.unit.ByteSize;
import dev.lakeops.verify.VerificationMode;
import java.time.Duration;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * One table's policy after precedence: a value and its source for every {@link PolicyKey}, and the
 * Iceberg rewrite options passed through {@code compact.options.*}.
 */
public final class EffectivePolicy {
  private final TableIdentifier table;
  private final Map<PolicyKey, Object> values;
  private final Map<PolicyKey, PolicySource> sources;
  private final Map<String, String> compactOptions;
  private final Map<String, PolicySource> compactOptionSources;

  EffectivePolicy(
      TableIdentifier table,
      Map<PolicyKey, Object> values,
      Map<PolicyKey, PolicySource> sources,
      Map<String, String> compactOptions,
      Map<String, PolicySource> compactOptionSources) {
    this.table = requireNonNull(table, "table is null");
    this.values =
        Collections.unmodifiableMap(new EnumMap<>(requireNonNull(values, "values is null")));
    this.sources =
        Collections.unmodifiableMap(new EnumMap<>(requireNonNull(sources, "sources is null")));
    this.compactOptions = Collections.unmodifiableMap(new LinkedHashMap<>(compactOptions));
    this.compactOptionSources =
        Collections.unmodifiableMap(new LinkedHashMap<>(compactOptionSources));
    for (PolicyKey key : PolicyKey.values()) {
      if (!this.values.containsKey(key) || !this.sources.containsKey(key)) {
        throw new IllegalArgumentException("No value for policy key " + key.key());
      }
    }
  }

  /** The built-in defaults for {@code table}, as without a policy file or table properties. */
  public static EffectivePolicy defaults(TableIdentifier table) {
    return new PolicyResolver(PolicyFile.empty()).resolve(table, Map.of());
  }

  void checkConsistent() {
    if (source(PolicyKey.MAX_POLL_INTERVAL).level() != PolicySource.Level.DEFAULT
        && pollInterval().compareTo((Duration) value(PolicyKey.MAX_POLL_INTERVAL)) > 0) {
      throw new PolicyException(
          "table "
              + table
              + ": "
              + PolicyKey.POLL_INTERVAL.key()
              + " "
              + text(PolicyKey.POLL_INTERVAL)
              + " (from "
              + source(PolicyKey.POLL_INTERVAL)
              + ") is longer than "
              + PolicyKey.MAX_POLL_INTERVAL.key()
              + " "
              + text(PolicyKey.MAX_POLL_INTERVAL)
              + " (from "
              + source(PolicyKey.MAX_POLL_INTERVAL)
              + "); raise "
              + PolicyKey.MAX_POLL_INTERVAL.key());
    }
    checkSparkSubmitCommand();
  }

  private void checkSparkSubmitCommand() {
    if (sparkSubmitMinBytes().isPresent() && sparkSubmitCommand().isEmpty()) {
      throw new PolicyException(
          "table "
              + table
              + ": "
              + PolicyKey.EXECUTION_SPARK_SUBMIT_MIN_BYTES.key()
              + " "
              + text(PolicyKey.EXECUTION_SPARK_SUBMIT_MIN_BYTES)
              + " (from "
              + source(PolicyKey.EXECUTION_SPARK_SUBMIT_MIN_BYTES)
              + ") needs "
              + PolicyKey.EXECUTION_SPARK_SUBMIT_COMMAND.key()
              + ": set it in the policy file's catalog: section");
    }
  }

  public TableIdentifier table() {
    return table;
  }

  /**
   * The parsed value of {@code key} (Boolean, Integer, Double, Duration, ByteSize, Optional,
   * Strategy).
   */
  public Object value(PolicyKey key) {
    return values.get(requireNonNull(key, "key is null"));
  }

  /** The value of {@code key} written as in a policy file, e.g. {@code 10m}, {@code 128MB}. */
  public String text(PolicyKey key) {
    return key.type().format(value(key));
  }

  public PolicySource source(PolicyKey key) {
    return sources.get(requireNonNull(key, "key is null"));
  }

  /** Iceberg rewrite options from {@code compact.options.*}, by option name. */
  public Map<String, String> compactOptions() {
    return compactOptions;
  }

  /** Where each {@link #compactOptions()} entry came from. */
  public Map<String, PolicySource> compactOptionSources() {
    return compactOptionSources;
  }

  public boolean enabled() {
    return (Boolean) value(PolicyKey.ENABLED);
  }

  public Duration pollInterval() {
    return (Duration) value(PolicyKey.POLL_INTERVAL);
  }

  /** At least {@link #pollInterval()} when only {@code poll-interval} was set. */
  public Duration maxPollInterval() {
    Duration maximum = (Duration) value(PolicyKey.MAX_POLL_INTERVAL);
    return maximum.compareTo(pollInterval()) < 0 ? pollInterval() : maximum;
  }

  public boolean compactEnabled() {
    return enabled() && (Boolean) value(PolicyKey.COMPACT_ENABLED);
  }

  public Strategy compactStrategy() {
    return (Strategy) value(PolicyKey.COMPACT_STRATEGY);
  }

  /** The verification mode of {@code compact.verify}; empty means the strategy's default. */
  public Optional<VerificationMode> compactVerification() {
    return ((Optional<?>) value(PolicyKey.COMPACT_VERIFY)).map(VerificationMode.class::cast);
  }

  public double smallFileRatio() {
    return (Double) value(PolicyKey.COMPACT_SMALL_FILE_RATIO);
  }

  public SmallFileRule smallFileRule() {
    return new SmallFileRule(smallFileRatio());
  }

  public int minSmallFiles() {
    return (Integer) value(PolicyKey.COMPACT_MIN_SMALL_FILES);
  }

  public int minDeleteFiles() {
    return (Integer) value(PolicyKey.COMPACT_MIN_DELETE_FILES);
  }

  public Duration compactMinInterval() {
    return (Duration) value(PolicyKey.COMPACT_MIN_INTERVAL);
  }

  /**
   * The target file size: {@code compact.target-file-size}, else {@code
   * compact.options.target-file-size-bytes}; empty means the table's {@code
   * write.target-file-size-bytes}.
   */
  public Optional<ByteSize> targetFileSize() {
    Optional<ByteSize> size = optionalSize(PolicyKey.COMPACT_TARGET_FILE_SIZE);
    String option = compactOptions.get(RewriteOptions.TARGET_FILE_SIZE_BYTES);
    if (size.isPresent() || option == null) {
      return size;
    }
    return Optional.of(ByteSize.ofBytes(Long.parseLong(option.trim())));
  }

  public double maxRecompactedShare() {
    return (Double) value(PolicyKey.COMPACT_MAX_RECOMPACTED_SHARE);
  }

  public Duration compactBackoff() {
    return (Duration) value(PolicyKey.COMPACT_BACKOFF);
  }

  /**
   * {@code compact.memory}: the memory share pinned for the table's compactions; empty: learned.
   */
  public Optional<ByteSize> compactMemory() {
    return optionalSize(PolicyKey.COMPACT_MEMORY);
  }

  public boolean expireEnabled() {
    return enabled() && (Boolean) value(PolicyKey.EXPIRE_ENABLED);
  }

  public Duration expireOlderThan() {
    return (Duration) value(PolicyKey.EXPIRE_OLDER_THAN);
  }

  public int expireRetainLast() {
    return (Integer) value(PolicyKey.EXPIRE_RETAIN_LAST);
  }

  public boolean orphansEnabled() {
    return enabled() && (Boolean) value(PolicyKey.ORPHANS_ENABLED);
  }

  public Duration orphansOlderThan() {
    return (Duration) value(PolicyKey.ORPHANS_OLDER_THAN);
  }

  public Duration orphansInterval() {
    return (Duration) value(PolicyKey.ORPHANS_INTERVAL);
  }

  public boolean manifestsEnabled() {
    return enabled() && (Boolean) value(PolicyKey.MANIFESTS_ENABLED);
  }

  public int manifestsMinCount() {
    return (Integer) value(PolicyKey.MANIFESTS_MIN_COUNT);
  }

  public ByteSize manifestsTargetSize() {
    return (ByteSize) value(PolicyKey.MANIFESTS_TARGET_SIZE);
  }

  /** Lake-wide: only the catalog level sets it, so every table's policy carries the same value. */
  /** {@code failures.suspend-after}: failures in a row that suspend an operation on the table. */
  public int suspendAfterFailures() {
    return (Integer) value(PolicyKey.FAILURES_SUSPEND_AFTER);
  }

  /** {@code failures.run-deadline}: a run still going after this is abandoned and tried again. */
  public Duration runDeadline() {
    return (Duration) value(PolicyKey.FAILURES_RUN_DEADLINE);
  }

  /**
   * A short digest of every value in force for the table: it changes when the policy of the table
   * changes (a suspended operation then resumes).
   */
  public String fingerprint() {
    return Integer.toHexString(toString().hashCode());
  }

  public int maxConcurrentTables() {
    return (Integer) value(PolicyKey.MAX_CONCURRENT_TABLES);
  }

  /** Lake-wide: only the catalog level sets it. */
  public ByteSize memory() {
    return (ByteSize) value(PolicyKey.MEMORY);
  }

  /** Lake-wide: only the catalog level sets it. */
  public Optional<ByteSize> maxBytesPerHour() {
    return optionalSize(PolicyKey.MAX_BYTES_PER_HOUR);
  }

  /**
   * {@code execution.spark-submit.min-bytes}: compactions planned to rewrite at least this many
   * bytes are handed to {@link #sparkSubmitCommand()}; empty: never.
   */
  public Optional<ByteSize> sparkSubmitMinBytes() {
    return optionalSize(PolicyKey.EXECUTION_SPARK_SUBMIT_MIN_BYTES);
  }

  /** Lake-wide: {@code execution.spark-submit.command}, empty when not configured. */
  @SuppressWarnings("unchecked")
  public Optional<SubmitCommand> sparkSubmitCommand() {
    return (Optional<SubmitCommand>) value(PolicyKey.EXECUTION_SPARK_SUBMIT_COMMAND);
  }

  /** Lake-wide: {@code execution.spark-submit.timeout}. */
  public Duration sparkSubmitTimeout() {
    return (Duration) value(PolicyKey.EXECUTION_SPARK_SUBMIT_TIMEOUT);
  }

  /** Whether a compaction planned to rewrite {@code plannedBytes} runs as a Spark application. */
  public boolean handsOffToSparkSubmit(long plannedBytes) {
    return sparkSubmitMinBytes().map(minimum -> plannedBytes >= minimum.bytes()).orElse(false);
  }

  /** The thresholds health is measured against under this policy. */
  public HealthCriteria healthCriteria() {
    return new HealthCriteria(
        smallFileRule(),
        targetFileSize(),
        minSmallFiles(),
        minDeleteFiles(),
        manifestsMinCount(),
        manifestsTargetSize(),
        expireRetainLast(),
        expireOlderThan());
  }

  @SuppressWarnings("unchecked")
  private Optional<ByteSize> optionalSize(PolicyKey key) {
    return (Optional<ByteSize>) value(key);
  }

  @Override
  public String toString() {
    StringBuilder text = new StringBuilder("EffectivePolicy[").append(table);
    for (PolicyKey key : PolicyKey.values()) {
      text.append(", ").append(key.key()).append('=').append(text(key));
    }
    return text.append(", compact.options=").append(compactOptions).append(']').toString();
  }
}
