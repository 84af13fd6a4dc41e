package dev.lakeops.distribute;

import static java.util.Objects.requireNonNull;

import dev.lakeops.verify.GroupRowAccount;
import java.io.Serial;
import java.io.Serializable;
import java.util.List;
import org.apache.iceberg.DataFile;

/**
 * What one attempt at a {@link GroupTask} wrote, sent back to the driver, which commits it. The
 * delete files the rewrite makes unneeded are worked out by the driver's committer from its plan.
 *
 * @param groupIndex the group's position in the plan
 * @param attemptTag the attempt that wrote the files (part of their names)
 * @param addedFiles the new data files, with full metrics
 * @param copiedBytes input bytes moved without decoding
 * @param decodedBytes input bytes decoded and re-encoded
 * @param peakMemoryBytes the attempt's memory budget peak
 * @param spilledBytes bytes written to spill files
 * @param spillFiles spill files written
 * @param fallbackReason why the group was decoded instead of merged without decoding; empty when it
 *     was not, or when it was a sort
 * @param rowAccount the rows the attempt read, saw deleted and wrote, for the driver's verifier
 */
public record GroupTaskResult(
    int groupIndex,
    String attemptTag,
    List<DataFile> addedFiles,
    long copiedBytes,
    long decodedBytes,
    long peakMemoryBytes,
    long spilledBytes,
    int spillFiles,
    String fallbackReason,
    GroupRowAccount rowAccount)
    implements Serializable {
  @Serial private static final long serialVersionUID = 1L;

  public GroupTaskResult {
    requireNonNull(attemptTag, "attemptTag is null");
    requireNonNull(fallbackReason, "fallbackReason is null");
    addedFiles = List.copyOf(requireNonNull(addedFiles, "addedFiles is null"));
    requireNonNull(rowAccount, "rowAccount is null");
  }

  /** A result without a row account (it fails verification unless verification is off). */
  public GroupTaskResult(
      int groupIndex,
      String attemptTag,
      List<DataFile> addedFiles,
      long copiedBytes,
      long decodedBytes,
      long peakMemoryBytes,
      long spilledBytes,
      int spillFiles,
      String fallbackReason) {
    this(
        groupIndex,
        attemptTag,
        addedFiles,
        copiedBytes,
        decodedBytes,
        peakMemoryBytes,
        spilledBytes,
        spillFiles,
        fallbackReason,
        GroupRowAccount.NONE);
  }
}
