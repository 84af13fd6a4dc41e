package dev.lakeops.deletes.equality;

import java.util.Arrays;

/**
 * One distinct equality-delete key in the in-memory key table, with the highest data sequence
 * number of the delete files that hold it: a data row with this key is deleted when its file's data
 * sequence number is lower.
 */
final class DeleteKey {
  private final byte[] bytes;
  private final int hash;
  private long maxSequenceNumber;

  DeleteKey(byte[] bytes, long sequenceNumber) {
    this.bytes = bytes;
    this.hash = Arrays.hashCode(bytes);
    this.maxSequenceNumber = sequenceNumber;
  }

  /** A key to look up with, not stored. */
  static DeleteKey probe(byte[] bytes) {
    return new DeleteKey(bytes, Long.MIN_VALUE);
  }

  int byteLength() {
    return bytes.length;
  }

  long maxSequenceNumber() {
    return maxSequenceNumber;
  }

  void raiseSequenceNumber(long sequenceNumber) {
    maxSequenceNumber = Math.max(maxSequenceNumber, sequenceNumber);
  }

  /** The spill partition of an encoded key, from a hash independent of the map's own. */
  static int partitionOf(byte[] bytes, int partitions) {
    long mixed = Arrays.hashCode(bytes) * 0x9E3779B97F4A7C15L;
    mixed ^= mixed >>> 29;
    mixed *= 0xBF58476D1CE4E5B9L;
    mixed ^= mixed >>> 32;
    return (int) Long.remainderUnsigned(mixed, partitions);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof DeleteKey that && hash == that.hash && Arrays.equals(bytes, that.bytes);
  }

  @Override
  public int hashCode() {
    return hash;
  }
}
