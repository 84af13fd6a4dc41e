package dev.lakeops.runs;

import dev.lakeops.compact.CompactionResult;
import dev.lakeops.cost.CostFields;
import dev.lakeops.ledger.RunFigures;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The one mapping from a run's result to named fields, shared by every host: the CLI's {@code
 * --json} object, Spark's result rows and Trino's {@code lakeops.system.runs} take their names and
 * values from here and only convert the types. Values are {@link Integer}, {@link Long}, {@link
 * Double}, {@link Boolean}, {@link String}, a list or a map, or null (no snapshot).
 *
 * <p>The ledger's figure columns carry the same names ({@link #figures}). What a run cost follows
 * in both, under the names of {@link CostFields}.
 */
public final class RunFields {
  public static final String TABLE = "table";
  public static final String STRATEGY = "strategy";
  public static final String STRATEGY_REASON = "strategy_reason";
  public static final String DRY_RUN = "dry_run";
  public static final String FILE_GROUPS = "file_groups";
  public static final String INPUT_FILES = "input_files";
  public static final String OUTPUT_FILES = "output_files";
  public static final String INPUT_BYTES = "input_bytes";
  public static final String OUTPUT_BYTES = "output_bytes";
  public static final String REMOVED_DELETE_FILES = "removed_delete_files";
  public static final String FAILED_DATA_FILES = "failed_data_files";
  public static final String DROPPED_GROUPS = "dropped_groups";
  public static final String SECONDS = "seconds";
  public static final String PEAK_MEMORY_BYTES = "peak_memory_bytes";
  public static final String SNAPSHOT_ID = "snapshot_id";
  public static final String RECOMPACTED_BYTES = "recompacted_bytes";
  public static final String VERIFICATION = "verification";
  public static final String VERIFIED_ROWS = "verified_rows";
  public static final String VERIFICATION_FAILURES = "verification_failures";

  /**
   * Result columns of engines that follow Iceberg's {@code rewrite_data_files} procedure (Spark's
   * {@code CALL lakeops.compact}), mapped to the field each one shows; every other column of such a
   * result has the field's own name.
   */
  public static final Map<String, String> ICEBERG_REWRITE_COLUMNS =
      orderedOf(
          "rewritten_data_files_count", INPUT_FILES,
          "added_data_files_count", OUTPUT_FILES,
          "rewritten_bytes_count", INPUT_BYTES,
          "failed_data_files_count", FAILED_DATA_FILES,
          "removed_delete_files_count", REMOVED_DELETE_FILES);

  private RunFields() {}

  /** Every field of a compaction's result, in the CLI's {@code --json} order. */
  public static Map<String, Object> compaction(CompactionResult result) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put(TABLE, result.table());
    fields.put(STRATEGY, result.strategy());
    fields.put(DRY_RUN, result.dryRun());
    fields.put(FILE_GROUPS, result.fileGroups());
    fields.put(INPUT_FILES, result.inputFiles());
    fields.put(OUTPUT_FILES, result.outputFiles());
    fields.put(INPUT_BYTES, result.inputBytes());
    fields.put(OUTPUT_BYTES, result.outputBytes());
    fields.put(REMOVED_DELETE_FILES, result.removedDeleteFiles());
    fields.put(SECONDS, result.elapsed().toNanos() / 1e9);
    fields.put(PEAK_MEMORY_BYTES, result.peakMemoryBytes());
    fields.put(
        SNAPSHOT_ID, result.snapshotId().isPresent() ? result.snapshotId().getAsLong() : null);
    fields.put("copied_bytes", result.copiedBytes());
    fields.put("decoded_bytes", result.decodedBytes());
    fields.put("fallback_reasons", result.fallbackReasons());
    fields.put("spilled_bytes", result.spilledBytes());
    fields.put("spill_files", result.spillFiles());
    fields.put("overlapping_files", result.overlappingFiles());
    fields.put(STRATEGY_REASON, result.strategyReason().isEmpty() ? null : result.strategyReason());
    fields.put("committed_groups", result.committedGroups());
    fields.put("retried_groups", result.retriedGroups());
    fields.put(DROPPED_GROUPS, result.droppedGroups());
    fields.put(FAILED_DATA_FILES, result.failedDataFiles());
    fields.put("drop_reasons", result.dropReasons());
    fields.put("rebased_groups", result.rebasedGroups());
    fields.put("commits", result.commits());
    fields.put("failed_commits", result.failedCommits());
    fields.put("commit_conflicts", result.commitConflicts());
    fields.put("commit_retries", result.commitRetries());
    fields.put("removed_dangling_delete_files", result.removedDanglingDeleteFiles());
    fields.put(VERIFICATION, result.verificationMode());
    fields.put(VERIFIED_ROWS, result.verifiedRows());
    fields.put(VERIFICATION_FAILURES, result.verificationFailures());
    fields.putAll(CostFields.of(result.cost()));
    return Collections.unmodifiableMap(fields);
  }

  /** The ledger's figures of a run, under the same names as {@link #compaction}'s fields. */
  public static Map<String, Object> figures(RunFigures figures) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put(INPUT_FILES, figures.inputFiles());
    fields.put(OUTPUT_FILES, figures.outputFiles());
    fields.put(INPUT_BYTES, figures.inputBytes());
    fields.put(OUTPUT_BYTES, figures.outputBytes());
    fields.put(REMOVED_DELETE_FILES, figures.removedDeleteFiles());
    fields.put(RECOMPACTED_BYTES, figures.recompactedBytes());
    fields.put(PEAK_MEMORY_BYTES, figures.peakMemoryBytes());
    fields.put(
        SNAPSHOT_ID, figures.snapshotId().isPresent() ? figures.snapshotId().getAsLong() : null);
    fields.put(VERIFICATION, figures.verification().isEmpty() ? null : figures.verification());
    fields.put(VERIFIED_ROWS, figures.verifiedRows());
    fields.put(VERIFICATION_FAILURES, figures.verificationFailures());
    fields.putAll(CostFields.of(figures.cost()));
    return Collections.unmodifiableMap(fields);
  }

  /** The field behind a result column of an engine that follows Iceberg's names. */
  public static String fieldOfIcebergColumn(String column) {
    return ICEBERG_REWRITE_COLUMNS.getOrDefault(column, column);
  }

  private static Map<String, String> orderedOf(String... keysAndValues) {
    Map<String, String> map = new LinkedHashMap<>();
    for (int index = 0; index < keysAndValues.length; index += 2) {
      map.put(keysAndValues[index], keysAndValues[index + 1]);
    }
    return Collections.unmodifiableMap(map);
  }
}
