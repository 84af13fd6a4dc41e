package dev.lakeops.rewrite;

import static java.util.Objects.requireNonNull;

import dev.lakeops.plan.FileGroup;
import dev.lakeops.verify.GroupRowAccount;
import java.util.List;
import org.apache.iceberg.DataFile;

/**
 * The files one group rewrite wrote, not yet committed.
 *
 * @param group the group that was rewritten
 * @param addedFiles the new data files, with full metrics
 * @param copiedBytes input bytes moved without decoding
 * @param decodedBytes input bytes decoded and re-encoded
 * @param fallbackReason why a binpack group was decoded instead of merged without decoding (see
 *     {@code dev.lakeops.rewrite.copy.FallbackReasons}); empty when it was not, or when decoding is
 *     the strategy's own path (sort, zorder)
 * @param rowAccount the rows the rewrite read, saw deleted and handed to its writer, with their
 *     checksums in {@code checksum} mode, for the verifier; {@link GroupRowAccount#NONE} when the
 *     path did not count them
 */
public record RewrittenGroup(
    FileGroup group,
    List<DataFile> addedFiles,
    long copiedBytes,
    long decodedBytes,
    String fallbackReason,
    GroupRowAccount rowAccount) {
  public RewrittenGroup {
    requireNonNull(group, "group is null");
    addedFiles = List.copyOf(requireNonNull(addedFiles, "addedFiles is null"));
    requireNonNull(fallbackReason, "fallbackReason is null");
    requireNonNull(rowAccount, "rowAccount is null");
  }

  /** A group rewritten without a row account. */
  public RewrittenGroup(
      FileGroup group,
      List<DataFile> addedFiles,
      long copiedBytes,
      long decodedBytes,
      String fallbackReason) {
    this(group, addedFiles, copiedBytes, decodedBytes, fallbackReason, GroupRowAccount.NONE);
  }

  /** A group rewritten along its path of choice, without a fallback reason. */
  public RewrittenGroup(
      FileGroup group, List<DataFile> addedFiles, long copiedBytes, long decodedBytes) {
    this(group, addedFiles, copiedBytes, decodedBytes, "");
  }

  /** A group rewritten along its path of choice, with the rows it counted. */
  public RewrittenGroup(
      FileGroup group,
      List<DataFile> addedFiles,
      long copiedBytes,
      long decodedBytes,
      GroupRowAccount rowAccount) {
    this(group, addedFiles, copiedBytes, decodedBytes, "", rowAccount);
  }

  /** This group, recorded as decoded for {@code reason}. */
  public RewrittenGroup withFallbackReason(String reason) {
    return new RewrittenGroup(group, addedFiles, copiedBytes, decodedBytes, reason, rowAccount);
  }

  public long outputBytes() {
    return addedFiles.stream().mapToLong(DataFile::fileSizeInBytes).sum();
  }

  public long outputRecords() {
    return addedFiles.stream().mapToLong(DataFile::recordCount).sum();
  }
}
