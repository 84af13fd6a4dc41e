package dev.lakeops.deletes.equality;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Counts heap structures against the memory budget: grows in chunks of untouched Arrow buffers from
 * a budget allocator, so that a key table larger than the budget fails its allocation instead of
 * growing the heap. Closing releases every chunk; safe to call twice.
 */
final class MemoryReservation implements AutoCloseable {
  private static final long CHUNK_BYTES = 1L << 20;

  private final BufferAllocator allocator;
  private final List<ArrowBuf> chunks = new ArrayList<>();
  private long reservedBytes;
  private long usedBytes;

  MemoryReservation(BufferAllocator allocator) {
    this.allocator = requireNonNull(allocator, "allocator is null");
  }

  /**
   * Counts {@code bytes} more, reserving another chunk when needed.
   *
   * @throws org.apache.arrow.memory.OutOfMemoryException when the budget has no room
   */
  void add(long bytes) {
    usedBytes += bytes;
    while (usedBytes > reservedBytes) {
      long chunk = Math.max(CHUNK_BYTES, usedBytes - reservedBytes);
      chunks.add(allocator.buffer(chunk));
      reservedBytes += chunk;
    }
  }

  long usedBytes() {
    return usedBytes;
  }

  /** Releases everything reserved so far; the reservation can be used again. */
  void clear() {
    chunks.forEach(ArrowBuf::close);
    chunks.clear();
    reservedBytes = 0;
    usedBytes = 0;
  }

  @Override
  public void close() {
    clear();
  }
}
