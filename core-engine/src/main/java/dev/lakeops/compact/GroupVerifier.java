package dev.lakeops.compact;

import static java.util.Objects.requireNonNull;

import dev.lakeops.plan.FileGroup;
import dev.lakeops.rewrite.RewrittenGroup;
import dev.lakeops.verify.ColumnCounts;
import dev.lakeops.verify.GroupRowAccount;
import dev.lakeops.verify.VerificationMode;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.iceberg.DataFile;

/**
 * Proves that a rewritten file group wrote exactly the live rows it read, before it is committed:
 *
 * <ol>
 *   <li>rows read equal the record counts the manifests give for the group's input files;
 *   <li>rows in the written files (their record counts come from the written Parquet footers) equal
 *       rows read less rows the deletes removed, and equal the rows handed to the writer;
 *   <li>per top-level primitive column of a group that removed no rows, the written files' value
 *       and null counts equal the input files' (columns whose input counts are missing are
 *       skipped); where deletes removed rows, the written null count is at most the input's;
 *   <li>in {@code checksum} mode, the checksum of the rows as read equals that of the rows as
 *       handed to the writer.
 * </ol>
 */
final class GroupVerifier {
  private final VerificationMode mode;
  private final Supplier<InputColumnCounts> inputCounts;

  /**
   * @param inputCounts the input files' column counts, asked for when the first group is checked
   */
  GroupVerifier(VerificationMode mode, Supplier<InputColumnCounts> inputCounts) {
    this.mode = requireNonNull(mode, "mode is null");
    this.inputCounts = requireNonNull(inputCounts, "inputCounts is null");
  }

  public VerificationMode mode() {
    return mode;
  }

  /**
   * Why {@code rewritten} fails verification, in one line naming the group, the expected and the
   * actual figure; empty when it passes (always, with verification off).
   */
  public Optional<String> check(RewrittenGroup rewritten) {
    if (!mode.countsRows()) {
      return Optional.empty();
    }
    FileGroup group = rewritten.group();
    GroupRowAccount account = rewritten.rowAccount();
    if (!account.accounted()) {
      return failure(group, "its rewrite counted no rows");
    }
    if (account.rowsRead() != group.recordCount()) {
      return failure(
          group,
          "read "
              + account.rowsRead()
              + " rows, the manifests list "
              + group.recordCount()
              + " in its input files");
    }
    long written = rewritten.outputRecords();
    if (written != account.liveRows()) {
      return failure(
          group,
          "wrote "
              + written
              + " rows, expected "
              + account.liveRows()
              + " ("
              + account.rowsRead()
              + " read, "
              + account.rowsDeleted()
              + " deleted)");
    }
    if (account.rowsWritten() != written) {
      return failure(
          group,
          "handed "
              + account.rowsWritten()
              + " rows to its writer, expected "
              + written
              + " as its files hold");
    }
    Optional<String> columns = checkColumns(rewritten, account.rowsDeleted() == 0);
    if (columns.isPresent()) {
      return columns;
    }
    if (mode.checksumsRows()
        && account.checksummed()
        && account.readChecksum() != account.writeChecksum()) {
      return failure(
          group,
          "row checksum written "
              + Long.toHexString(account.writeChecksum())
              + ", expected "
              + Long.toHexString(account.readChecksum())
              + " as read");
    }
    return Optional.empty();
  }

  private Optional<String> checkColumns(RewrittenGroup rewritten, boolean noRowsRemoved) {
    List<DataFile> outputs = rewritten.addedFiles();
    for (Map.Entry<Integer, ColumnCounts> entry :
        inputCounts.get().of(rewritten.group().index()).entrySet()) {
      int fieldId = entry.getKey();
      ColumnCounts input = entry.getValue();
      Optional<ColumnCounts> output = outputCounts(outputs, fieldId);
      if (output.isEmpty()) {
        continue;
      }
      ColumnCounts actual = output.get();
      if (noRowsRemoved && actual.valueCount() != input.valueCount()) {
        return failure(
            rewritten.group(),
            "column "
                + inputCounts.get().columnName(fieldId)
                + " has "
                + actual.valueCount()
                + " values written, expected "
                + input.valueCount());
      }
      boolean nullsWrong =
          noRowsRemoved
              ? actual.nullCount() != input.nullCount()
              : actual.nullCount() > input.nullCount();
      if (nullsWrong) {
        return failure(
            rewritten.group(),
            "column "
                + inputCounts.get().columnName(fieldId)
                + " has "
                + actual.nullCount()
                + " nulls written, expected "
                + (noRowsRemoved ? "" : "at most ")
                + input.nullCount());
      }
    }
    return Optional.empty();
  }

  private static Optional<ColumnCounts> outputCounts(List<DataFile> outputs, int fieldId) {
    ColumnCounts sum = new ColumnCounts(0, 0);
    for (DataFile output : outputs) {
      Optional<ColumnCounts> counts = InputColumnCounts.countsOf(output, fieldId);
      if (counts.isEmpty()) {
        return Optional.empty();
      }
      sum = sum.plus(counts.get());
    }
    return Optional.of(sum);
  }

  private static Optional<String> failure(FileGroup group, String reason) {
    return Optional.of(
        "verification: group " + group.index() + " (" + group.partitionPath() + ") " + reason);
  }
}
