package dev.lakeops.rewrite;

import static java.util.Objects.requireNonNull;

import java.util.UUID;
import java.util.regex.Pattern;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.encryption.EncryptedOutputFile;
import org.apache.iceberg.io.OutputFileFactory;

/**
 * Names of the data files a compaction writes. Every name carries the run's operation id; a group
 * rewritten as a task elsewhere (a Spark executor) also carries the task attempt's tag, so a
 * retried or speculative attempt never writes over a file another attempt wrote.
 */
public final class OutputFileNames {
  private static final Pattern TAG = Pattern.compile("[A-Za-z0-9_-]+");

  private OutputFileNames() {}

  /** A new operation id, unique per compaction run. */
  public static String newOperationId() {
    return "lakeops-" + UUID.randomUUID();
  }

  /**
   * The operation id of the run a ledger records as {@code runId}: every output file name of that
   * run carries it, so the files a killed run left behind can be told apart from any other file.
   */
  public static String operationIdOfRun(String runId) {
    requireNonNull(runId, "runId is null");
    if (!TAG.matcher(runId).matches()) {
      throw new IllegalArgumentException(
          "Invalid run id '" + runId + "': use letters, digits, '-' and '_' only");
    }
    return "lakeops-" + runId;
  }

  /** Whether {@code location} names an output file of the run with {@code operationId}. */
  public static boolean isOutputOf(String location, String operationId) {
    requireNonNull(location, "location is null");
    requireNonNull(operationId, "operationId is null");
    String name = location.substring(location.lastIndexOf('/') + 1);
    return name.contains("-" + operationId + "-");
  }

  /** Output files of a run whose groups are rewritten in this process. */
  public static OutputFileFactory forRun(Table table, String operationId) {
    requireNonNull(table, "table is null");
    requireNonNull(operationId, "operationId is null");
    return OutputFileFactory.builderFor(table, 1, System.currentTimeMillis())
        .format(FileFormat.PARQUET)
        .operationId(operationId)
        .build();
  }

  /**
   * Output files of one attempt at group {@code groupIndex} of a run, e.g. {@code
   * 00003-0-lakeops-<uuid>-attempt-17-00001.parquet} for tag {@code attempt-17}.
   *
   * @param attemptTag letters, digits, {@code -} and {@code _} only
   */
  public static OutputFileFactory forAttempt(
      Table table, String operationId, int groupIndex, String attemptTag) {
    requireNonNull(table, "table is null");
    requireNonNull(operationId, "operationId is null");
    requireNonNull(attemptTag, "attemptTag is null");
    if (!TAG.matcher(attemptTag).matches()) {
      throw new IllegalArgumentException(
          "Invalid attempt tag '" + attemptTag + "': use letters, digits, '-' and '_' only");
    }
    return OutputFileFactory.builderFor(table, groupIndex, 0)
        .format(FileFormat.PARQUET)
        .operationId(operationId + "-" + attemptTag)
        .build();
  }

  /**
   * A new file of {@code outputs} in {@code partition} of {@code spec}. A file of an unpartitioned
   * spec goes straight under the data location: the partitioned form would put an empty path
   * segment in it ({@code data//file.parquet}), which local file systems collapse and object stores
   * refuse (S3 signs the key with the empty segment).
   */
  public static EncryptedOutputFile newOutputFile(
      OutputFileFactory outputs, PartitionSpec spec, StructLike partition) {
    requireNonNull(outputs, "outputs is null");
    requireNonNull(spec, "spec is null");
    if (spec.isUnpartitioned() || partition == null) {
      return outputs.newOutputFile();
    }
    return outputs.newOutputFile(spec, partition);
  }
}
