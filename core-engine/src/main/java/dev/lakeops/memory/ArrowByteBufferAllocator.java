package dev.lakeops.memory;

import static java.util.Objects.requireNonNull;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.AllocationReservation;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.OutOfMemoryException;
import org.apache.parquet.bytes.ByteBufferAllocator;

/**
 * Lets parquet-java allocate its page and encoding buffers within an Arrow allocator's budget, so
 * they count against the same hard limit as the Arrow batches. Each buffer is a direct {@link
 * ByteBuffer} of the JDK's own, its size reserved from the Arrow allocator while it lives (Arrow's
 * {@code ArrowBuf.nioBuffer} view would need {@code DirectByteBuffer}'s private constructor, which a
 * JVM without {@code --add-opens=java.base/java.nio=ALL-UNNAMED} does not open).
 *
 * <p>parquet-java releases some buffers while views of them are still in use (with its default heap
 * allocator that is harmless), and some twice. So a release only marks the buffer; the memory is
 * freed by {@link #freeReleased()} once the row group that used it has been written, and by {@link
 * #freeAll()} when the file is done.
 */
public final class ArrowByteBufferAllocator implements ByteBufferAllocator {
  private final BufferAllocator allocator;
  private final Map<ByteBuffer, AllocationReservation> live = new IdentityHashMap<>();
  private final List<Map.Entry<ByteBuffer, AllocationReservation>> released = new ArrayList<>();

  public ArrowByteBufferAllocator(BufferAllocator allocator) {
    this.allocator = requireNonNull(allocator, "allocator is null");
  }

  @Override
  public synchronized ByteBuffer allocate(int size) {
    AllocationReservation reservation = allocator.newReservation();
    try {
      // add() rounds up to a power of two, as Arrow's own buffer() does below its chunk size
      if (!reservation.add((long) size)) {
        throw new OutOfMemoryException(
            "Unable to allocate a Parquet buffer of " + size + " bytes within allocator " + allocator.getName()
                + " (limit " + allocator.getLimit() + ", allocated " + allocator.getAllocatedMemory() + ")");
      }
      ByteBuffer buffer = ByteBuffer.allocateDirect(size);
      live.put(buffer, reservation);
      return buffer;
    } catch (RuntimeException | Error e) {
      reservation.close();
      throw e;
    }
  }

  @Override
  public synchronized void release(ByteBuffer buffer) {
    AllocationReservation reservation = live.remove(buffer);
    if (reservation != null) {
      released.add(Map.entry(buffer, reservation));
    }
  }

  @Override
  public boolean isDirect() {
    return true;
  }

  /** Frees buffers parquet-java released; call only when nothing of theirs can still be read. */
  public synchronized void freeReleased() {
    released.forEach(entry -> free(entry.getKey(), entry.getValue()));
    released.clear();
  }

  /** Frees every buffer, released or not (parquet-java does not release all of them). */
  public synchronized void freeAll() {
    freeReleased();
    live.forEach(ArrowByteBufferAllocator::free);
    live.clear();
  }

  private static void free(ByteBuffer buffer, AllocationReservation reservation) {
    try {
      DirectBuffers.free(buffer);
    } finally {
      reservation.close();
    }
  }
}
