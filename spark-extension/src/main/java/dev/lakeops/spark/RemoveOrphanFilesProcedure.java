package dev.lakeops.spark;

import static dev.lakeops.spark.ResultRowsScan.column;

import dev.lakeops.maintain.orphan.OrphanFileRemover;
import dev.lakeops.maintain.orphan.OrphanRemovalOptions;
import dev.lakeops.maintain.orphan.OrphanRemovalResult;
import dev.lakeops.maintain.orphan.PrefixMismatchMode;
import dev.lakeops.operation.MaintenanceOperation;
import dev.lakeops.operation.Operations;
import java.time.Instant;
import java.util.Iterator;
import java.util.Map;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * {@code CALL lakeops.remove_orphan_files(table => ..., older_than => '5d', location => ...,
 * dry_run => true, prefix_mismatch_mode => 'error', equal_schemes => map(...), equal_authorities =>
 * map(...))}: the arguments of {@link Operations#REMOVE_ORPHAN_FILES} (Iceberg's, with {@code
 * older_than} also taking an age) and Iceberg's result column, run by the LakeOps core ({@link
 * OrphanFileRemover}). Files written less than 3 days ago are never candidates.
 */
final class RemoveOrphanFilesProcedure extends TableProcedure {
  static final String NAME = Operations.REMOVE_ORPHAN_FILES.name();

  static final StructType SCHEMA =
      new StructType(
          new StructField[] {column("orphan_file_location", DataTypes.StringType, false)});

  RemoveOrphanFilesProcedure() {
    super(Operations.REMOVE_ORPHAN_FILES);
  }

  @Override
  Iterator<Scan> call(ProcedureArguments arguments) {
    String table = arguments.requiredString(TABLE);
    OrphanRemovalOptions.Builder options =
        OrphanRemovalOptions.builder()
            .location(arguments.string("location").orElse(null))
            .dryRun(arguments.booleanValue(Operations.DRY_RUN));
    Instant now = Instant.now();
    arguments
        .cutoff(Operations.OLDER_THAN, now, SessionTableRunner.sessionTimeZone())
        .map(cutoff -> OrphanRemovalOptions.ageOf(cutoff, now, Operations.OLDER_THAN))
        .ifPresent(options::olderThan);
    arguments
        .integer(Operations.MAX_CONCURRENT_DELETES, 1, "use 1 or more")
        .ifPresent(options::parallelism);
    Map<String, String> equalSchemes = arguments.map("equal_schemes");
    if (!equalSchemes.isEmpty()) {
      options.equalSchemes(equalSchemes);
    }
    options.equalAuthorities(arguments.map("equal_authorities"));
    arguments
        .parsed("prefix_mismatch_mode", PrefixMismatchMode::parse)
        .ifPresent(options::prefixMismatchMode);
    OrphanRemovalOptions removal = options.build();
    OrphanRemovalResult result =
        SessionTableRunner.forActiveSession()
            .run(
                table,
                false,
                removal.dryRun(),
                (loaded, recorder) ->
                    recorder.record(
                        MaintenanceOperation.REMOVE_ORPHAN_FILES,
                        () -> new OrphanFileRemover().remove(loaded, removal)));
    return ResultRowsScan.of(
        SCHEMA,
        result.orphanFiles().stream().map(ResultRowsScan::row).toList(),
        "lakeops.remove_orphan_files result");
  }
}
