package dev.lakeops.operation.call;

import static java.util.Objects.requireNonNull;

import dev.lakeops.advise.AdvisedCompactor;
import dev.lakeops.compact.CheckedCompaction;
import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.compact.Strategy;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.operation.ContractDefaults;
import dev.lakeops.operation.HostSettings;
import dev.lakeops.operation.Operation;
import dev.lakeops.operation.OperationArguments;
import dev.lakeops.operation.Operations;
import dev.lakeops.plan.RewriteOptions;
import dev.lakeops.runs.MeasuredRun;
import dev.lakeops.runs.RunOutcomes;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.Table;

/**
 * {@code compact} bound to its request. {@code target_file_size} and the CLI's {@code --min-age}
 * become the rewrite options {@code target-file-size-bytes} and {@code min-age}, over the same keys
 * in {@code options}. {@code execution} is Spark's to read: it decides the {@link
 * RunSettings#groupExecution()}.
 *
 * @param request the compaction request
 */
public record CompactCall(CompactionRequest request) implements BoundOperation<CompactionResult> {
  public CompactCall {
    requireNonNull(request, "request is null");
  }

  /** Checks {@code arguments} and applies the contract's defaults. */
  public static CompactCall bind(OperationArguments arguments) {
    ArgumentReader reader =
        new ArgumentReader(
            Operations.COMPACT,
            arguments,
            Set.of(HostSettings.TELEMETRY_STORE, HostSettings.MIN_AGE));
    Map<String, String> options = new LinkedHashMap<>(reader.map("options"));
    reader
        .size(Operations.TARGET_FILE_SIZE)
        .ifPresent(
            size ->
                options.put(RewriteOptions.TARGET_FILE_SIZE_BYTES, String.valueOf(size.bytes())));
    reader.text(HostSettings.MIN_AGE).ifPresent(age -> options.put(RewriteOptions.MIN_AGE, age));
    CompactionRequest.Builder builder =
        CompactionRequest.builder()
            .strategy(
                reader
                    .parsed("strategy", Strategy::parse)
                    .orElseGet(() -> Strategy.parse(ContractDefaults.STRATEGY)))
            .sortOrder(reader.text("sort_order").orElse(null))
            .zorderColumns(reader.texts("zorder_columns"))
            .where(reader.text("where").orElse(null))
            .options(options)
            .memoryBudget(
                reader.size(Operations.MEMORY_BUDGET).orElse(ContractDefaults.MEMORY_BUDGET))
            .verify(reader.text(Operations.VERIFY).orElse(null))
            .dryRun(reader.flag(Operations.DRY_RUN))
            .telemetryStore(reader.text(HostSettings.TELEMETRY_STORE).orElse(null));
    reader.path("spill_directory").ifPresent(builder::spillDirectory);
    return new CompactCall(builder.build());
  }

  /**
   * Refuses a request the run would refuse (an unknown option, column or mode), before the ledger,
   * the lock or the table is touched.
   */
  public CompactCall checkedOn(Table table) {
    CheckedCompaction.of(table, request);
    return this;
  }

  @Override
  public Operation operation() {
    return Operations.COMPACT;
  }

  @Override
  public boolean dryRun() {
    return request.dryRun();
  }

  @Override
  public MeasuredRun<CompactionResult> run(Table table, RunSettings settings) {
    checkedOn(table);
    CompactionResult result =
        settings
            .recorder()
            .withDryRun(request.dryRun())
            .compact(
                settings.listener(),
                listener ->
                    new AdvisedCompactor(
                            new TableCompactor(
                                listener, settings.lockOptions(), settings.groupExecution()))
                        .compact(table, request));
    return new MeasuredRun<>(result, RunOutcomes.of(result).cost());
  }
}
