package dev.lakeops.flink;

import static java.util.Objects.requireNonNull;

import dev.lakeops.unit.ByteSize;
import java.io.Serializable;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.api.common.functions.FilterFunction;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.transformations.SinkTransformation;
import org.apache.iceberg.flink.TableLoader;

/**
 * Compacts the table an Iceberg Flink sink writes, after committed checkpoints, with the LakeOps
 * core. Build it like Iceberg's sink builders and attach it to the sink:
 *
 * <pre>{@code
 * DataStreamSink<RowData> sink = IcebergSink.forRowData(rows).tableLoader(loader).append();
 * LakeOpsCompaction.forTable(loader)
 *     .smallFileThreshold(ByteSize.ofMegabytes(32))
 *     .minNewFiles(20)
 *     .memoryBudget(ByteSize.ofMegabytes(512))
 *     .build()
 *     .attachTo(sink);
 * }</pre>
 *
 * <p>Iceberg's {@code IcebergSink} keeps its post-commit topology to itself (its builder only takes
 * Iceberg's own maintenance tasks), so the hook is a separate operator of parallelism 1 in the same
 * job, fed an always-empty stream. Flink calls it back when a checkpoint completes, which is when
 * the sink commits; its checks and compactions run on a thread of its own.
 */
public final class LakeOpsCompaction implements Serializable {
  private static final long serialVersionUID = 1L;

  private final TableLoader tableLoader;
  private final CompactionHookOptions options;

  private LakeOpsCompaction(TableLoader tableLoader, CompactionHookOptions options) {
    this.tableLoader = requireNonNull(tableLoader, "tableLoader is null");
    this.options = requireNonNull(options, "options is null");
  }

  /** Starts a builder for the table {@code tableLoader} loads: pass the sink's own loader. */
  public static Builder forTable(TableLoader tableLoader) {
    return new Builder(tableLoader);
  }

  public CompactionHookOptions options() {
    return options;
  }

  /**
   * Adds the hook to the job of {@code sink}, the stream {@code IcebergSink...append()} returned.
   */
  public SingleOutputStreamOperator<Void> attachTo(DataStreamSink<?> sink) {
    requireNonNull(sink, "sink is null");
    if (!(sink.getTransformation() instanceof SinkTransformation<?, ?> transformation)) {
      throw new IllegalArgumentException(
          "Cannot attach LakeOps compaction to "
              + sink.getTransformation().getName()
              + ": not a Sink V2 sink; use append(stream) with any stream of the job");
    }
    return append(transformation.getInputStream());
  }

  /**
   * Adds the hook to the job of {@code stream}: any stream of the job will do, it never reads its
   * records.
   */
  public <T> SingleOutputStreamOperator<Void> append(DataStream<T> stream) {
    requireNonNull(stream, "stream is null");
    String name = "LakeOps compaction: " + tableName();
    return stream
        .filter(new NoRecords<>())
        .name(name + " (input)")
        .uid(name + " (input)")
        .setParallelism(stream.getParallelism())
        .transform(name, Types.VOID, new CompactionTriggerOperator<T>(tableLoader.clone(), options))
        .uid(name)
        .setParallelism(1)
        .setMaxParallelism(1);
  }

  private String tableName() {
    try (TableLoader loader = tableLoader.clone()) {
      loader.open();
      return loader.loadTable().name();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** Lets nothing through: the hook only needs to be part of the job. */
  private static final class NoRecords<T> implements FilterFunction<T> {
    private static final long serialVersionUID = 1L;

    @Override
    public boolean filter(T value) {
      return false;
    }
  }

  /** Sets the hook's options; see {@link CompactionHookOptions} for each one's meaning. */
  public static final class Builder {
    private final TableLoader tableLoader;
    private int minNewFiles = CompactionHookOptions.MIN_NEW_FILES_DEFAULT;
    private Optional<ByteSize> smallFileThreshold = Optional.empty();
    private Optional<ByteSize> minSmallBytes = Optional.empty();
    private int minDeleteFiles = CompactionHookOptions.MIN_DELETE_FILES_DEFAULT;
    private Duration minInterval = CompactionHookOptions.MIN_INTERVAL_DEFAULT;
    private int maxPartitions = CompactionHookOptions.MAX_PARTITIONS_DEFAULT;
    private ByteSize memory = CompactionHookOptions.defaults().memory();
    private Map<String, String> rewriteOptions = Map.of();
    private Duration lockWait = CompactionHookOptions.defaults().lockWait();
    private Duration leaseDuration = CompactionHookOptions.defaults().leaseDuration();
    private Duration closeTimeout = CompactionHookOptions.CLOSE_TIMEOUT_DEFAULT;
    private Optional<String> telemetryStore = Optional.empty();
    private Optional<String> verify = Optional.empty();

    private Builder(TableLoader tableLoader) {
      this.tableLoader = requireNonNull(tableLoader, "tableLoader is null");
    }

    /** Compact once this many small data files were added since the last compaction. */
    public Builder minNewFiles(int value) {
      this.minNewFiles = value;
      return this;
    }

    /** Data files under this size are small (default: 75% of the table's target file size). */
    public Builder smallFileThreshold(ByteSize value) {
      this.smallFileThreshold = Optional.of(requireNonNull(value, "smallFileThreshold is null"));
      return this;
    }

    /** Compact once small new files add up to this much (default: the target file size). */
    public Builder minSmallBytes(ByteSize value) {
      this.minSmallBytes = Optional.of(requireNonNull(value, "minSmallBytes is null"));
      return this;
    }

    /** Compact once this many delete files were added since the last compaction. */
    public Builder minDeleteFiles(int value) {
      this.minDeleteFiles = value;
      return this;
    }

    /** At least this long between the starts of two compactions. */
    public Builder minInterval(Duration value) {
      this.minInterval = value;
      return this;
    }

    /** Beyond this many affected partitions, compact the whole table. */
    public Builder maxPartitions(int value) {
      this.maxPartitions = value;
      return this;
    }

    /** The compaction's memory budget: {@code memory_budget} of the procedure contract. */
    public Builder memoryBudget(ByteSize value) {
      this.memory = value;
      return this;
    }

    /**
     * The compaction's memory budget.
     *
     * @deprecated use {@link #memoryBudget(ByteSize)}, the name every engine uses
     */
    @Deprecated
    public Builder memory(ByteSize value) {
      return memoryBudget(value);
    }

    /**
     * Iceberg {@code rewrite_data_files} options, e.g. {@code min-input-files}: {@code options} of
     * the procedure contract.
     */
    public Builder options(Map<String, String> value) {
      this.rewriteOptions = value;
      return this;
    }

    /**
     * Iceberg {@code rewrite_data_files} options.
     *
     * @deprecated use {@link #options(Map)}, the name every engine uses
     */
    @Deprecated
    public Builder rewriteOptions(Map<String, String> value) {
      return options(value);
    }

    /** How long to wait for another compactor's lock before skipping to the next checkpoint. */
    public Builder lockWait(Duration value) {
      this.lockWait = value;
      return this;
    }

    /** The lock lease; a crashed job blocks other compactors at most this long. */
    public Builder leaseDuration(Duration value) {
      this.leaseDuration = value;
      return this;
    }

    /** How long a finishing job waits for a running compaction. */
    public Builder closeTimeout(Duration value) {
      this.closeTimeout = value;
      return this;
    }

    /** Records the write pattern into this telemetry store, e.g. {@code sqlite:/data/t.db}. */
    public Builder telemetry(String storeConfiguration) {
      this.telemetryStore =
          Optional.of(requireNonNull(storeConfiguration, "storeConfiguration is null"));
      return this;
    }

    /**
     * How each rewritten file group is proved before its commit: {@code counts}, {@code checksum}
     * or {@code off} ({@code verify} of the procedure contract; default: checksum for sort and
     * zorder, counts for binpack).
     */
    public Builder verify(String value) {
      this.verify = Optional.of(requireNonNull(value, "verify is null"));
      return this;
    }

    public LakeOpsCompaction build() {
      return new LakeOpsCompaction(
          tableLoader,
          new CompactionHookOptions(
              minNewFiles,
              smallFileThreshold,
              minSmallBytes,
              minDeleteFiles,
              minInterval,
              maxPartitions,
              memory,
              rewriteOptions,
              lockWait,
              leaseDuration,
              closeTimeout,
              telemetryStore,
              verify));
    }
  }
}
