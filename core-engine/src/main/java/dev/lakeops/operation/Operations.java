package dev.lakeops.operation;

import static dev.lakeops.operation.ArgumentType.BOOLEAN;
import static dev.lakeops.operation.ArgumentType.CUTOFF;
import static dev.lakeops.operation.ArgumentType.INTEGER;
import static dev.lakeops.operation.ArgumentType.LONG_LIST;
import static dev.lakeops.operation.ArgumentType.SIZE;
import static dev.lakeops.operation.ArgumentType.TEXT;
import static dev.lakeops.operation.ArgumentType.TEXT_LIST;
import static dev.lakeops.operation.ArgumentType.TEXT_MAP;
import static dev.lakeops.operation.Host.CLI;
import static dev.lakeops.operation.Host.FLINK;
import static dev.lakeops.operation.Host.SPARK;
import static dev.lakeops.operation.Host.TRINO;

import java.util.List;
import java.util.Optional;

/**
 * The procedure contract: every maintenance operation with its arguments (name, kind, default,
 * meaning). Spark's and Trino's procedures, the CLI and the Flink builder declare exactly these,
 * spelled as {@link Host#spell} says; names follow Iceberg's own procedures where Iceberg has one.
 */
public final class Operations {
  public static final String DRY_RUN = "dry_run";
  public static final String MEMORY_BUDGET = "memory_budget";

  /** The compaction's verification mode ({@code dev.lakeops.verify.VerificationMode}). */
  public static final String VERIFY = "verify";

  public static final String OLDER_THAN = "older_than";
  public static final String MAX_CONCURRENT_DELETES = "max_concurrent_deletes";

  /** The size of the files a compaction writes; sets the rewrite option target-file-size-bytes. */
  public static final String TARGET_FILE_SIZE = "target_file_size";

  private static final OperationArgument MEMORY_BUDGET_ARGUMENT =
      OperationArgument.of(
              MEMORY_BUDGET,
              SIZE,
              ContractDefaults.display(ContractDefaults.MEMORY_BUDGET),
              "memory the rewrite may hold; beyond it, sorted runs and delete keys spill to disk")
          .withAlias(SPARK, "memory", SIZE)
          .withAlias(CLI, "--memory", SIZE)
          .withAlias(FLINK, "memory", SIZE);

  private static final OperationArgument SPILL_DIRECTORY_ARGUMENT =
      OperationArgument.of(
              "spill_directory",
              TEXT,
              "the system temporary directory (Trino: the catalog's lakeops.spill-directory)",
              "where data beyond the memory budget spills")
          .onlyOn(SPARK, TRINO, CLI)
          .withAlias(CLI, "--spill-dir", TEXT);

  private static final OperationArgument MAX_CONCURRENT_DELETES_ARGUMENT =
      OperationArgument.of(
              MAX_CONCURRENT_DELETES,
              INTEGER,
              "the number of processors, at least 2",
              "threads that list directories, read manifests and delete files")
          .onlyOn(SPARK, TRINO, CLI);

  public static final Operation COMPACT =
      Operation.of(
          MaintenanceOperation.COMPACT,
          "Rewrites small data files into files of the target size, optionally sorted or z-ordered.",
          OperationArgument.of(
                  "strategy",
                  TEXT,
                  ContractDefaults.display(ContractDefaults.STRATEGY),
                  "binpack, sort, zorder or auto (the advisor's choice)")
              .onlyOn(SPARK, TRINO, CLI),
          OperationArgument.of(
                  "sort_order",
                  TEXT,
                  null,
                  "sort order of strategy sort, e.g. 'country ASC NULLS FIRST, ts DESC'"
                      + " (default: the table's)")
              .onlyOn(SPARK, TRINO, CLI),
          OperationArgument.of(
                  "where", TEXT, null, "rewrite only files that may hold rows matching this filter")
              .onlyOn(SPARK, TRINO, CLI),
          OperationArgument.of(
                  "options",
                  TEXT_MAP,
                  null,
                  "Iceberg rewrite_data_files options, e.g. target-file-size-bytes, min-input-files")
              .withCliFlag("--option")
              .withAlias(FLINK, "rewriteOptions", TEXT_MAP),
          OperationArgument.of("zorder_columns", TEXT_LIST, null, "columns of strategy zorder")
              .onlyOn(SPARK, TRINO, CLI)
              .withAlias(SPARK, "zorder_by", TEXT)
              .withAlias(CLI, "--zorder", TEXT_LIST),
          MEMORY_BUDGET_ARGUMENT,
          OperationArgument.of(
                  VERIFY,
                  TEXT,
                  "checksum for sort and zorder, counts for binpack",
                  "prove each rewritten file group before its commit: counts, checksum or off")
              .onlyOn(SPARK, TRINO, CLI, FLINK),
          dryRun("plan only, change nothing"),
          SPILL_DIRECTORY_ARGUMENT,
          OperationArgument.of(
                  "execution",
                  TEXT,
                  "driver (spark-submit LakeOpsJob: executors)",
                  "where file groups are rewritten: driver, or executors as Spark tasks")
              .onlyOn(SPARK),
          OperationArgument.of(
                  TARGET_FILE_SIZE,
                  SIZE,
                  "the table's write.target-file-size-bytes",
                  "size of the files written, e.g. 512MB (sets the option target-file-size-bytes)")
              .onlyOn(SPARK, TRINO, CLI));

  public static final Operation EXPIRE_SNAPSHOTS =
      Operation.of(
              MaintenanceOperation.EXPIRE_SNAPSHOTS,
              "Expires snapshots, honouring branches and tags, and deletes the files only they"
                  + " reached.",
              OperationArgument.of(
                  OLDER_THAN,
                  CUTOFF,
                  "the table's history.expire.max-snapshot-age-ms (5 days)",
                  "expire snapshots older than this"),
              OperationArgument.of(
                  "retain_last",
                  INTEGER,
                  "the table's history.expire.min-snapshots-to-keep (1)",
                  "keep at least this many ancestors of every branch"),
              MAX_CONCURRENT_DELETES_ARGUMENT,
              OperationArgument.of(
                      "snapshot_ids", LONG_LIST, null, "also expire exactly these snapshots")
                  .withCliFlag("--snapshot-id"),
              OperationArgument.of(
                  "clean_expired_metadata",
                  BOOLEAN,
                  "false",
                  "also remove partition specs no kept snapshot uses"),
              dryRun("report what would be expired and deleted, change nothing"))
          .onlyOn(SPARK, TRINO, CLI);

  public static final Operation REMOVE_ORPHAN_FILES =
      Operation.of(
              MaintenanceOperation.REMOVE_ORPHAN_FILES,
              "Deletes files under the table location that no snapshot, ref or metadata file"
                  + " references.",
              OperationArgument.of(
                  OLDER_THAN,
                  CUTOFF,
                  ContractDefaults.display(ContractDefaults.ORPHAN_OLDER_THAN)
                      + " (also the safety floor)",
                  "only files written before this are candidates"),
              OperationArgument.of(
                  "location", TEXT, null, "list this directory inside the table location instead"),
              dryRun("list the orphans, delete nothing"),
              MAX_CONCURRENT_DELETES_ARGUMENT,
              OperationArgument.of(
                  "equal_schemes",
                  TEXT_MAP,
                  ContractDefaults.display(ContractDefaults.EQUAL_SCHEMES),
                  "schemes that name the same storage, e.g. map('s3a,s3n', 's3')"),
              OperationArgument.of(
                  "equal_authorities", TEXT_MAP, null, "authorities that name the same storage"),
              OperationArgument.of(
                  "prefix_mismatch_mode",
                  TEXT,
                  ContractDefaults.display(ContractDefaults.PREFIX_MISMATCH_MODE),
                  "a path referenced under another scheme or authority: error, ignore or delete"))
          .onlyOn(SPARK, TRINO, CLI);

  public static final Operation REWRITE_MANIFESTS =
      Operation.of(
              MaintenanceOperation.REWRITE_MANIFESTS,
              "Rewrites manifests into target-sized ones clustered by partition.",
              OperationArgument.of(
                  "spec_id", INTEGER, null, "only data manifests of this partition spec"),
              OperationArgument.of(
                  "target_manifest_size",
                  SIZE,
                  "the table's commit.manifest.target-size-bytes",
                  "size of the new manifests, e.g. 8MB"),
              dryRun("report the manifests to rewrite, change nothing"))
          .onlyOn(SPARK, TRINO, CLI);

  public static final Operation MAINTAIN =
      Operation.of(
              MaintenanceOperation.MAINTAIN,
              "Expires snapshots, removes orphan files, compacts and rewrites manifests, in that"
                  + " order, each with its defaults.",
              OperationArgument.of(
                      "skip_steps",
                      TEXT_LIST,
                      null,
                      "steps not to run: expire, orphans, compact, manifests")
                  .withCliFlag("--skip"),
              dryRun("report what each step would do, change nothing"))
          .onlyOn(SPARK, TRINO, CLI);

  public static final Operation HEALTH =
      Operation.of(
              MaintenanceOperation.HEALTH,
              "Reports a table's file layout health from its metadata.")
          .onlyOn(SPARK, TRINO, CLI);

  public static final Operation REWRITE_POSITION_DELETES =
      Operation.of(
              MaintenanceOperation.REWRITE_POSITION_DELETES,
              "Compacts each partition's position delete files into one (v2) or one deletion"
                  + " vector per data file (v3).",
              OperationArgument.of(
                  "min_input_files",
                  INTEGER,
                  ContractDefaults.display(ContractDefaults.MIN_INPUT_FILES),
                  "rewrite partitions with at least this many position delete files"),
              dryRun("report what would be rewritten, change nothing"))
          .onlyOn(CLI);

  public static final Operation REMOVE_DANGLING_DELETES =
      Operation.of(
              MaintenanceOperation.REMOVE_DANGLING_DELETES,
              "Removes delete files and deletion vectors that no longer apply to a live data file.",
              dryRun("report the dangling delete files, change nothing"))
          .onlyOn(CLI);

  public static final Operation CONVERT_EQUALITY_DELETES =
      Operation.of(
              MaintenanceOperation.CONVERT_EQUALITY_DELETES,
              "Replaces equality delete files with position deletes or deletion vectors deleting"
                  + " the same rows.",
              OperationArgument.of(
                  "where",
                  TEXT,
                  null,
                  "only equality deletes applying to files that may hold matching rows"),
              MEMORY_BUDGET_ARGUMENT,
              SPILL_DIRECTORY_ARGUMENT,
              dryRun("report what would be converted, change nothing"))
          .onlyOn(CLI);

  /** Every operation, in the order the docs list them. */
  public static final List<Operation> ALL =
      List.of(
          COMPACT,
          EXPIRE_SNAPSHOTS,
          REMOVE_ORPHAN_FILES,
          REWRITE_MANIFESTS,
          MAINTAIN,
          HEALTH,
          REWRITE_POSITION_DELETES,
          REMOVE_DANGLING_DELETES,
          CONVERT_EQUALITY_DELETES);

  private Operations() {}

  /** The operations {@code host} offers. */
  public static List<Operation> offeredOn(Host host) {
    return ALL.stream().filter(operation -> operation.offeredOn(host)).toList();
  }

  /** The contract of {@code identity}. */
  public static Operation of(MaintenanceOperation identity) {
    return ALL.stream()
        .filter(operation -> operation.identity() == identity)
        .findFirst()
        .orElseThrow(() -> new IllegalStateException(identity + " has no contract"));
  }

  /** The operation of that procedure name, empty for a name no operation has. */
  public static Optional<Operation> named(String name) {
    return ALL.stream().filter(operation -> operation.name().equals(name)).findFirst();
  }

  private static OperationArgument dryRun(String description) {
    return OperationArgument.of(DRY_RUN, BOOLEAN, "false", description).onlyOn(SPARK, TRINO, CLI);
  }
}
