package dev.lakeops.memory;

import static java.util.Objects.requireNonNull;

import java.nio.ByteBuffer;
import java.util.IdentityHashMap;
import java.util.Map;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.parquet.bytes.ByteBufferAllocator;

/**
 * Lets parquet-java allocate its page and encoding buffers from an Arrow allocator, so they count
 * against the same hard budget as the Arrow batches.
 */
public final class ArrowByteBufferAllocator implements ByteBufferAllocator {
  private final BufferAllocator allocator;
  private final Map<ByteBuffer, ArrowBuf> buffers = new IdentityHashMap<>();

  public ArrowByteBufferAllocator(BufferAllocator allocator) {
    this.allocator = requireNonNull(allocator, "allocator is null");
  }

  @Override
  public synchronized ByteBuffer allocate(int size) {
    ArrowBuf buffer = allocator.buffer(size);
    ByteBuffer view = buffer.nioBuffer(0, size);
    buffers.put(view, buffer);
    return view;
  }

  @Override
  public synchronized void release(ByteBuffer view) {
    ArrowBuf buffer = buffers.remove(view);
    if (buffer != null) {
      buffer.close();
    }
    // parquet-java releases some encoder buffers twice (on reset and again on close): ignore repeats
  }

  @Override
  public boolean isDirect() {
    return true;
  }

  /** Releases buffers parquet-java never returned (it does not release all of them on close). */
  public synchronized void releaseAll() {
    buffers.values().forEach(ArrowBuf::close);
    buffers.clear();
  }
}
