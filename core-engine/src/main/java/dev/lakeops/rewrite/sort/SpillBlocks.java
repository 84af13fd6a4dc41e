package dev.lakeops.rewrite.sort;

import com.github.luben.zstd.Zstd;

/**
 * The layout of a spill file: a sequence of blocks, each holding up to {@link #BLOCK_BYTES} bytes
 * of the run's Arrow IPC stream, compressed with zstd at {@link #LEVEL}. A block is a header of two
 * little-endian ints, the raw length and the stored length, then the stored bytes; a block whose
 * stored length equals its raw length holds the bytes as they are (they did not compress). Blocks
 * are read and written whole, one system call each. A block writer or reader holds its raw and its
 * stored block in two heap arrays: a JVM without {@code --add-opens=java.base/java.nio} (a stock
 * Trino server) cannot reach a direct buffer's memory address.
 */
final class SpillBlocks {
  /** Raw bytes a block holds at most: large enough for few system calls, small for many readers. */
  static final int BLOCK_BYTES = 120 * 1024;

  /**
   * zstd's first fast level: on a 2-core machine spilling 3 GB it spilled 40 % fewer bytes than
   * storing the blocks raw in less time (less copying into the page cache), where level 1 spilled
   * another fifth less but cost more processor time than it saved.
   */
  static final int LEVEL = -1;

  static final int HEADER_BYTES = 8;

  /** Bytes a stored block takes at most, its header included. */
  static final int STORED_BYTES = HEADER_BYTES + (int) Zstd.compressBound(BLOCK_BYTES);

  private SpillBlocks() {}

  static void putInt(byte[] bytes, int offset, int value) {
    bytes[offset] = (byte) value;
    bytes[offset + 1] = (byte) (value >>> 8);
    bytes[offset + 2] = (byte) (value >>> 16);
    bytes[offset + 3] = (byte) (value >>> 24);
  }

  static int getInt(byte[] bytes, int offset) {
    return (bytes[offset] & 0xff)
        | (bytes[offset + 1] & 0xff) << 8
        | (bytes[offset + 2] & 0xff) << 16
        | (bytes[offset + 3] & 0xff) << 24;
  }
}
