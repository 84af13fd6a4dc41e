package dev.lakeops.rewrite.sort;

import com.github.luben.zstd.Zstd;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.arrow.memory.AllocationReservation;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The layout of a spill file: a sequence of blocks, each holding up to {@link #BLOCK_BYTES} bytes
 * of the run's Arrow IPC stream, compressed with zstd at {@link #LEVEL}. A block is a header of two
 * little-endian ints, the raw length and the stored length, then the stored bytes; a block whose
 * stored length equals its raw length holds the bytes as they are (they did not compress). Blocks
 * are read and written whole, one system call each.
 *
 * <p>The direct buffers of a block writer or reader are reserved from the allocator of the stage
 * they serve, so they count against the memory budget like every Arrow buffer.
 */
final class SpillBlocks {
  /**
   * Raw bytes a block holds at most: large enough for few system calls, small enough for many
   * readers; with its stored block it fits {@link #RESERVED_BYTES}.
   */
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

  /** Direct-buffer bytes one block writer or reader holds: its raw and its stored block. */
  static final long BUFFER_BYTES = BLOCK_BYTES + STORED_BYTES;

  /** What one block writer or reader reserves: Arrow rounds reservations to a power of two. */
  static final long RESERVED_BYTES = 256 * 1024;

  private SpillBlocks() {}

  /**
   * Reserves {@link #RESERVED_BYTES} of {@code allocator}; fails with Arrow's out-of-memory error
   * when the allocator cannot hold them.
   */
  static AllocationReservation reserve(BufferAllocator allocator, String purpose) {
    AllocationReservation reservation = allocator.newReservation();
    if (!reservation.add(RESERVED_BYTES)) {
      reservation.close();
      throw new org.apache.arrow.memory.OutOfMemoryException(
          "Cannot reserve "
              + RESERVED_BYTES
              + " bytes for "
              + purpose
              + " in "
              + allocator.getName()
              + " (limit "
              + allocator.getLimit()
              + ", allocated "
              + allocator.getAllocatedMemory()
              + ")");
    }
    return reservation;
  }

  static ByteBuffer rawBlock() {
    return ByteBuffer.allocateDirect(BLOCK_BYTES).order(ByteOrder.LITTLE_ENDIAN);
  }

  static ByteBuffer storedBlock() {
    return ByteBuffer.allocateDirect(STORED_BYTES).order(ByteOrder.LITTLE_ENDIAN);
  }
}
