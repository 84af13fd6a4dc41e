package dev.lakeops.operation.call;

import static java.util.Objects.requireNonNull;

import dev.lakeops.maintain.orphan.OrphanFileRemover;
import dev.lakeops.maintain.orphan.OrphanRemovalOptions;
import dev.lakeops.maintain.orphan.OrphanRemovalResult;
import dev.lakeops.maintain.orphan.PrefixMismatchMode;
import dev.lakeops.operation.ContractDefaults;
import dev.lakeops.operation.Host;
import dev.lakeops.operation.HostSettings;
import dev.lakeops.operation.MaintenanceOperation;
import dev.lakeops.operation.Operation;
import dev.lakeops.operation.OperationArguments;
import dev.lakeops.operation.Operations;
import dev.lakeops.runs.MeasuredRun;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.Table;

/**
 * {@code remove_orphan_files} bound to its options. A cutoff under the safety floor is refused in
 * SQL; on the command line {@code --force} accepts it.
 *
 * @param options what orphan removal may delete
 */
public record RemoveOrphanFilesCall(OrphanRemovalOptions options)
    implements BoundOperation<OrphanRemovalResult> {
  public RemoveOrphanFilesCall {
    requireNonNull(options, "options is null");
  }

  /** Checks {@code arguments} and applies the contract's defaults. */
  public static RemoveOrphanFilesCall bind(OperationArguments arguments) {
    ArgumentReader reader =
        new ArgumentReader(Operations.REMOVE_ORPHAN_FILES, arguments, Set.of(HostSettings.FORCE));
    boolean force = reader.flag(HostSettings.FORCE);
    Map<String, String> equalSchemes = reader.map("equal_schemes");
    OrphanRemovalOptions.Builder options =
        OrphanRemovalOptions.builder()
            .location(reader.text("location").orElse(null))
            .dryRun(reader.flag(Operations.DRY_RUN))
            .equalSchemes(equalSchemes.isEmpty() ? ContractDefaults.EQUAL_SCHEMES : equalSchemes)
            .equalAuthorities(reader.map("equal_authorities"))
            .prefixMismatchMode(
                reader
                    .parsed("prefix_mismatch_mode", PrefixMismatchMode::parse)
                    .orElseGet(
                        () -> PrefixMismatchMode.parse(ContractDefaults.PREFIX_MISMATCH_MODE)))
            .allowBelowSafetyFloor(force)
            .olderThan(
                reader
                    .cutoff(Operations.OLDER_THAN)
                    .map(cutoff -> age(reader, cutoff, force))
                    .orElse(ContractDefaults.ORPHAN_OLDER_THAN));
    reader
        .integer(Operations.MAX_CONCURRENT_DELETES, 1, "use 1 or more")
        .ifPresent(options::parallelism);
    return new RemoveOrphanFilesCall(options.build());
  }

  /**
   * How long ago {@code cutoff} lies. In SQL a cutoff under the safety floor names the argument;
   * the command line's options refuse it naming {@code --force}, unless it was given.
   */
  private static Duration age(ArgumentReader reader, Instant cutoff, boolean force) {
    if (force || reader.host() == Host.CLI) {
      return Duration.between(cutoff, reader.now());
    }
    return OrphanRemovalOptions.ageOf(cutoff, reader.now(), reader.spelling(Operations.OLDER_THAN));
  }

  @Override
  public Operation operation() {
    return Operations.REMOVE_ORPHAN_FILES;
  }

  @Override
  public boolean dryRun() {
    return options.dryRun();
  }

  @Override
  public MeasuredRun<OrphanRemovalResult> run(Table table, RunSettings settings) {
    return settings
        .recorder()
        .withDryRun(options.dryRun())
        .recordMeasured(
            MaintenanceOperation.REMOVE_ORPHAN_FILES,
            () -> new OrphanFileRemover().remove(table, options));
  }
}
