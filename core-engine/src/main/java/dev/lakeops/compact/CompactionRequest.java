package dev.lakeops.compact;

import static java.util.Objects.requireNonNull;

import dev.lakeops.memory.MemoryBudget;
import dev.lakeops.unit.ByteSize;
import dev.lakeops.verify.VerificationMode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a caller asks of a compaction: the strategy, Iceberg {@code rewrite_data_files} options
 * (verbatim key names), an optional row filter and the memory budget.
 *
 * @param strategy binpack, sort, zorder or auto
 * @param options Iceberg rewrite option names mapped to values, e.g. {@code target-file-size-bytes}
 * @param where a filter expression such as {@code "day >= '2024-01-01' AND country = 'NL'"}
 * @param memoryBudget the hard limit for all buffers of the rewrite
 * @param sortOrder an explicit sort order for the sort strategy, e.g. {@code "country ASC NULLS
 *     FIRST, ts DESC"}
 * @param zorderColumns columns to interleave for the zorder strategy
 * @param spillDirectory where sorted runs spill when they exceed the budget
 * @param dryRun plan only, change nothing
 * @param telemetryStore the telemetry store the auto strategy reads ({@code sqlite:<path>} or
 *     {@code jdbc:postgresql://...}); empty means the default store
 * @param verify the verification mode as given ({@code counts}, {@code checksum} or {@code off});
 *     empty means the strategy's default (see {@link #verificationMode()}). Checked with the other
 *     arguments before the table is touched ({@link CheckedCompaction})
 */
public record CompactionRequest(
    Strategy strategy,
    Map<String, String> options,
    Optional<String> where,
    ByteSize memoryBudget,
    Optional<String> sortOrder,
    List<String> zorderColumns,
    Path spillDirectory,
    boolean dryRun,
    Optional<String> telemetryStore,
    Optional<String> verify) {
  public static final ByteSize DEFAULT_MEMORY_BUDGET = MemoryBudget.DEFAULT_LIMIT;

  public CompactionRequest {
    requireNonNull(strategy, "strategy is null");
    options = Map.copyOf(requireNonNull(options, "options is null"));
    requireNonNull(where, "where is null");
    requireNonNull(memoryBudget, "memoryBudget is null");
    requireNonNull(sortOrder, "sortOrder is null");
    zorderColumns = List.copyOf(requireNonNull(zorderColumns, "zorderColumns is null"));
    requireNonNull(spillDirectory, "spillDirectory is null");
    requireNonNull(telemetryStore, "telemetryStore is null");
    requireNonNull(verify, "verify is null");
  }

  /**
   * The verification mode: the one asked for, else {@code checksum} for sort and zorder (rows move)
   * and {@code counts} for binpack.
   *
   * @throws IllegalArgumentException when {@link #verify()} names no mode
   */
  public VerificationMode verificationMode() {
    if (verify.isPresent()) {
      return VerificationMode.parse(verify.get());
    }
    return switch (strategy) {
      case SORT, ZORDER -> VerificationMode.CHECKSUM;
      case BINPACK, AUTO -> VerificationMode.COUNTS;
    };
  }

  /** A builder holding every value of this request, to change some of them. */
  public Builder toBuilder() {
    Builder builder = new Builder();
    builder.strategy = strategy;
    builder.options = options;
    builder.where = where;
    builder.memoryBudget = memoryBudget;
    builder.sortOrder = sortOrder;
    builder.zorderColumns = zorderColumns;
    builder.spillDirectory = spillDirectory;
    builder.dryRun = dryRun;
    builder.telemetryStore = telemetryStore;
    builder.verify = verify;
    return builder;
  }

  /** A binpack request with default options and budget. */
  public static CompactionRequest binpack() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Builds requests; every setter returns this builder. */
  public static final class Builder {
    private Strategy strategy = Strategy.BINPACK;
    private Map<String, String> options = Map.of();
    private Optional<String> where = Optional.empty();
    private ByteSize memoryBudget = DEFAULT_MEMORY_BUDGET;
    private Optional<String> sortOrder = Optional.empty();
    private List<String> zorderColumns = List.of();
    private Path spillDirectory = Path.of(System.getProperty("java.io.tmpdir"));
    private boolean dryRun;
    private Optional<String> telemetryStore = Optional.empty();
    private Optional<String> verify = Optional.empty();

    private Builder() {}

    /**
     * The verification mode by name ({@code counts}, {@code checksum}, {@code off}); null or blank
     * means the strategy's default. A bad name is refused by {@link CheckedCompaction}.
     */
    public Builder verify(String value) {
      this.verify = nonBlank(value);
      return this;
    }

    public Builder verify(VerificationMode value) {
      this.verify = Optional.of(value.displayName());
      return this;
    }

    public Builder strategy(Strategy value) {
      this.strategy = value;
      return this;
    }

    public Builder options(Map<String, String> value) {
      this.options = value;
      return this;
    }

    public Builder where(String value) {
      this.where = nonBlank(value);
      return this;
    }

    public Builder memoryBudget(ByteSize value) {
      this.memoryBudget = value;
      return this;
    }

    public Builder sortOrder(String value) {
      this.sortOrder = nonBlank(value);
      return this;
    }

    public Builder zorderColumns(List<String> value) {
      this.zorderColumns = value;
      return this;
    }

    public Builder spillDirectory(Path value) {
      this.spillDirectory = value;
      return this;
    }

    public Builder dryRun(boolean value) {
      this.dryRun = value;
      return this;
    }

    /** The telemetry store the auto strategy reads; null or blank means the default store. */
    public Builder telemetryStore(String value) {
      this.telemetryStore = nonBlank(value);
      return this;
    }

    private static Optional<String> nonBlank(String value) {
      return Optional.ofNullable(value).filter(text -> !text.isBlank());
    }

    public CompactionRequest build() {
      return new CompactionRequest(
          strategy,
          options,
          where,
          memoryBudget,
          sortOrder,
          zorderColumns,
          spillDirectory,
          dryRun,
          telemetryStore,
          verify);
    }
  }
}
