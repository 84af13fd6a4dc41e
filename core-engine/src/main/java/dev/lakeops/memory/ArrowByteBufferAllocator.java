package dev.lakeops.memory;

import static java.util.Objects.requireNonNull;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.parquet.bytes.ByteBufferAllocator;

/**
 * Lets parquet-java allocate its page and encoding buffers from an Arrow allocator, so they count
 * against the same hard budget as the Arrow batches.
 *
 * <p>parquet-java releases some buffers while views of them are still in use (with its default heap
 * allocator that is harmless), and some twice. So a release only marks the buffer; the memory is
 * freed by {@link #freeReleased()} once the row group that used it has been written, and by {@link
 * #freeAll()} when the file is done.
 */
public final class ArrowByteBufferAllocator implements ByteBufferAllocator {
  private final BufferAllocator allocator;
  private final Map<ByteBuffer, ArrowBuf> live = new IdentityHashMap<>();
  private final List<ArrowBuf> released = new ArrayList<>();

  public ArrowByteBufferAllocator(BufferAllocator allocator) {
    this.allocator = requireNonNull(allocator, "allocator is null");
  }

  @Override
  public synchronized ByteBuffer allocate(int size) {
    ArrowBuf buffer = allocator.buffer(size);
    ByteBuffer view = buffer.nioBuffer(0, size);
    live.put(view, buffer);
    return view;
  }

  @Override
  public synchronized void release(ByteBuffer view) {
    ArrowBuf buffer = live.remove(view);
    if (buffer != null) {
      released.add(buffer);
    }
  }

  @Override
  public boolean isDirect() {
    return true;
  }

  /** Frees buffers parquet-java released; call only when nothing of theirs can still be read. */
  public synchronized void freeReleased() {
    released.forEach(ArrowBuf::close);
    released.clear();
  }

  /** Frees every buffer, released or not (parquet-java does not release all of them). */
  public synchronized void freeAll() {
    freeReleased();
    live.values().forEach(ArrowBuf::close);
    live.clear();
  }
}
