package dev.lakeops.verify;

import java.io.Serial;
import java.io.Serializable;

/**
 * What one file group's rewrite read and handed to its writer, as the rewrite path itself counted
 * it, for the verifier to hold against the manifests and the written files.
 *
 * @param accounted whether the rewrite path counted its rows at all; a group without an account
 *     fails verification
 * @param rowsRead rows read from the input data files, deleted rows included
 * @param rowsDeleted rows that position deletes, deletion vectors or equality deletes removed
 * @param rowsWritten rows handed to the writer
 * @param checksummed whether the checksums below were computed ({@code checksum} mode on a path
 *     that decodes)
 * @param readChecksum the order-independent checksum of the live rows as read
 * @param writeChecksum the order-independent checksum of the rows as handed to the writer
 */
public record GroupRowAccount(
    boolean accounted,
    long rowsRead,
    long rowsDeleted,
    long rowsWritten,
    boolean checksummed,
    long readChecksum,
    long writeChecksum)
    implements Serializable {
  @Serial private static final long serialVersionUID = 1L;

  /** The account of a rewrite that counted nothing. */
  public static final GroupRowAccount NONE = new GroupRowAccount(false, 0, 0, 0, false, 0, 0);

  public GroupRowAccount {
    if (rowsRead < 0 || rowsDeleted < 0 || rowsWritten < 0) {
      throw new IllegalArgumentException(
          "Row counts must not be negative: read "
              + rowsRead
              + ", deleted "
              + rowsDeleted
              + ", written "
              + rowsWritten);
    }
  }

  /** An account without checksums. */
  public static GroupRowAccount counted(long rowsRead, long rowsDeleted, long rowsWritten) {
    return new GroupRowAccount(true, rowsRead, rowsDeleted, rowsWritten, false, 0, 0);
  }

  /** The live rows read: rows read less rows the deletes removed. */
  public long liveRows() {
    return rowsRead - rowsDeleted;
  }
}
