package dev.lakeops.verify;

/**
 * Counts one group's rows as its rewrite reads and writes them, and (in {@code checksum} mode) sums
 * their checksums; read by {@link #account()} at the end. Confined to the thread that rewrites the
 * group.
 */
public final class RowTally {
  private final boolean checksummed;
  private long rowsRead;
  private long rowsDeleted;
  private long rowsWritten;
  private long readChecksum;
  private long writeChecksum;

  public RowTally(VerificationMode mode) {
    this.checksummed = mode.checksumsRows();
  }

  /** Whether the rewrite should compute checksums for {@link #addReadChecksum(long)}. */
  public boolean checksummed() {
    return checksummed;
  }

  /** {@code rows} read from an input file, of which {@code deleted} were removed by deletes. */
  public void read(long rows, long deleted) {
    rowsRead += rows;
    rowsDeleted += deleted;
  }

  public void written(long rows) {
    rowsWritten += rows;
  }

  public void addReadChecksum(long checksum) {
    readChecksum += checksum;
  }

  public void addWriteChecksum(long checksum) {
    writeChecksum += checksum;
  }

  public GroupRowAccount account() {
    return new GroupRowAccount(
        true, rowsRead, rowsDeleted, rowsWritten, checksummed, readChecksum, writeChecksum);
  }
}
