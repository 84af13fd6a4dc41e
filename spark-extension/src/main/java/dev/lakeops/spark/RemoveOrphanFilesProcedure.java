package dev.lakeops.spark;

import static dev.lakeops.spark.ResultRowsScan.column;

import dev.lakeops.maintain.orphan.OrphanFileRemover;
import dev.lakeops.maintain.orphan.OrphanRemovalOptions;
import dev.lakeops.maintain.orphan.OrphanRemovalResult;
import dev.lakeops.maintain.orphan.PrefixMismatchMode;
import dev.lakeops.runs.RunOperations;
import dev.lakeops.unit.TimeInput;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * {@code CALL lakeops.remove_orphan_files(table => ..., older_than => TIMESTAMP '...', location =>
 * ..., dry_run => true, prefix_mismatch_mode => 'error', equal_schemes => map(...),
 * equal_authorities => map(...))}: Iceberg's arguments and result column, run by the LakeOps core
 * ({@link OrphanFileRemover}). Files written less than 3 days ago are never candidates.
 */
final class RemoveOrphanFilesProcedure extends TableProcedure {
  static final String NAME = "remove_orphan_files";

  static final ProcedureParameter OLDER_THAN =
      optional(
          "older_than",
          DataTypes.TimestampType,
          "NULL",
          "only files written before this (default: 3 days ago)");
  static final ProcedureParameter LOCATION =
      optional(
          "location",
          DataTypes.StringType,
          "NULL",
          "list this directory inside the table location instead");
  static final ProcedureParameter DRY_RUN =
      optional("dry_run", DataTypes.BooleanType, "false", "list the orphans, delete nothing");
  static final ProcedureParameter MAX_CONCURRENT_DELETES =
      optional(
          "max_concurrent_deletes",
          DataTypes.IntegerType,
          "NULL",
          "threads that list, read manifests and delete");
  static final ProcedureParameter EQUAL_SCHEMES =
      optional(
          "equal_schemes",
          DataTypes.createMapType(DataTypes.StringType, DataTypes.StringType),
          "NULL",
          "schemes to treat as equal, e.g. map('s3a,s3n', 's3') (the default)");
  static final ProcedureParameter EQUAL_AUTHORITIES =
      optional(
          "equal_authorities",
          DataTypes.createMapType(DataTypes.StringType, DataTypes.StringType),
          "NULL",
          "authorities to treat as equal");
  static final ProcedureParameter PREFIX_MISMATCH_MODE =
      optional(
          "prefix_mismatch_mode",
          DataTypes.StringType,
          "NULL",
          "error (default), ignore or delete");

  static final StructType SCHEMA =
      new StructType(
          new StructField[] {column("orphan_file_location", DataTypes.StringType, false)});

  RemoveOrphanFilesProcedure() {
    super(
        NAME,
        "Deletes files under the table location that no snapshot references, with the LakeOps engine on the driver",
        TABLE,
        OLDER_THAN,
        LOCATION,
        DRY_RUN,
        MAX_CONCURRENT_DELETES,
        EQUAL_SCHEMES,
        EQUAL_AUTHORITIES,
        PREFIX_MISMATCH_MODE);
  }

  @Override
  Iterator<Scan> call(ProcedureArguments arguments) {
    String table = arguments.requiredString(TABLE);
    OrphanRemovalOptions.Builder options =
        OrphanRemovalOptions.builder()
            .location(arguments.string(LOCATION).orElse(null))
            .dryRun(arguments.booleanValue(DRY_RUN));
    Optional<Instant> olderThan = arguments.timestamp(OLDER_THAN);
    if (olderThan.isPresent()) {
      options.olderThan(ageOf(olderThan.get()));
    }
    arguments.integer(MAX_CONCURRENT_DELETES, 1, "use 1 or more").ifPresent(options::parallelism);
    Map<String, String> equalSchemes = arguments.map(EQUAL_SCHEMES);
    if (!equalSchemes.isEmpty()) {
      options.equalSchemes(equalSchemes);
    }
    options.equalAuthorities(arguments.map(EQUAL_AUTHORITIES));
    arguments
        .parsed(PREFIX_MISMATCH_MODE, PrefixMismatchMode::parse)
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
                        RunOperations.REMOVE_ORPHAN_FILES,
                        () -> new OrphanFileRemover().remove(loaded, removal)));
    return ResultRowsScan.of(
        SCHEMA,
        result.orphanFiles().stream().map(ResultRowsScan::row).toList(),
        "lakeops.remove_orphan_files result");
  }

  /**
   * How long before now {@code cutoff} lies; refused under the safety floor, before anything runs.
   */
  private static Duration ageOf(Instant cutoff) {
    Duration age = Duration.between(cutoff, Instant.now());
    if (age.compareTo(OrphanRemovalOptions.SAFETY_FLOOR) < 0) {
      throw new IllegalArgumentException(
          "Invalid argument older_than => "
              + cutoff
              + ": files written in the last "
              + TimeInput.format(OrphanRemovalOptions.SAFETY_FLOOR)
              + " may belong to writes still in progress; use a timestamp at least that long ago");
    }
    return age;
  }
}
