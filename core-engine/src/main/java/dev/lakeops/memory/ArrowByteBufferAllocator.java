package dev.lakeops.memory;

import static java.util.Objects.requireNonNull;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.AllocationReservation;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.OutOfMemoryException;
import org.apache.arrow.memory.RootAllocator;
import org.apache.parquet.bytes.ByteBufferAllocator;

/**
 * Lets parquet-java allocate its page and encoding buffers within an Arrow allocator's budget, so
 * they count against the same hard limit as the Arrow batches.
 *
 * <p>Where the JVM lets Arrow make a {@link ByteBuffer} view of its memory ({@code
 * ArrowBuf.nioBuffer}, which needs {@code DirectByteBuffer}'s private constructor, opened by {@code
 * --add-opens=java.base/java.nio=ALL-UNNAMED}), each buffer is an Arrow buffer. Elsewhere, a stock
 * Trino server for one, each is a direct buffer of the JDK's own, its size reserved from the Arrow
 * allocator while it lives and its memory freed at once when released ({@link DirectBuffers}).
 *
 * <p>parquet-java releases some buffers while views of them are still in use (with its default heap
 * allocator that is harmless), and some twice. So a release only marks the buffer; the memory is
 * freed by {@link #freeReleased()} once the row group that used it has been written, and by {@link
 * #freeAll()} when the file is done.
 */
public final class ArrowByteBufferAllocator implements ByteBufferAllocator {
  /** How buffers are made. */
  public enum Source {
    /** Views of Arrow buffers: the JVM opens {@code java.nio} to Arrow. */
    ARROW_VIEWS,
    /** The JDK's direct buffers, their size reserved from the Arrow allocator. */
    JDK_DIRECT;

    /** The source this JVM allows: Arrow views where Arrow can make them. */
    public static Source available() {
      return ArrowViews.AVAILABLE ? ARROW_VIEWS : JDK_DIRECT;
    }
  }

  private final BufferAllocator allocator;
  private final Source source;
  private final Map<ByteBuffer, Runnable> live = new IdentityHashMap<>();
  private final List<Runnable> released = new ArrayList<>();

  public ArrowByteBufferAllocator(BufferAllocator allocator) {
    this(allocator, Source.available());
  }

  public ArrowByteBufferAllocator(BufferAllocator allocator, Source source) {
    this.allocator = requireNonNull(allocator, "allocator is null");
    this.source = requireNonNull(source, "source is null");
  }

  @Override
  public synchronized ByteBuffer allocate(int size) {
    return source == Source.ARROW_VIEWS ? arrowView(size) : jdkDirect(size);
  }

  private ByteBuffer arrowView(int size) {
    ArrowBuf buffer = allocator.buffer(size);
    try {
      ByteBuffer view = buffer.nioBuffer(0, size);
      live.put(view, buffer::close);
      return view;
    } catch (RuntimeException | Error e) {
      buffer.close();
      throw e;
    }
  }

  private ByteBuffer jdkDirect(int size) {
    AllocationReservation reservation = allocator.newReservation();
    try {
      // add() rounds up to a power of two, as Arrow's own buffer() does below its chunk size
      if (!reservation.add((long) size)) {
        throw new OutOfMemoryException(
            "Unable to allocate a Parquet buffer of "
                + size
                + " bytes within allocator "
                + allocator.getName()
                + " (limit "
                + allocator.getLimit()
                + ", allocated "
                + allocator.getAllocatedMemory()
                + ")");
      }
      ByteBuffer buffer = ByteBuffer.allocateDirect(size);
      live.put(
          buffer,
          () -> {
            try {
              DirectBuffers.free(buffer);
            } finally {
              reservation.close();
            }
          });
      return buffer;
    } catch (RuntimeException | Error e) {
      reservation.close();
      throw e;
    }
  }

  @Override
  public synchronized void release(ByteBuffer buffer) {
    Runnable free = live.remove(buffer);
    if (free != null) {
      released.add(free);
    }
  }

  @Override
  public boolean isDirect() {
    return true;
  }

  public Source source() {
    return source;
  }

  /** Frees buffers parquet-java released; call only when nothing of theirs can still be read. */
  public synchronized void freeReleased() {
    released.forEach(Runnable::run);
    released.clear();
  }

  /** Frees every buffer, released or not (parquet-java does not release all of them). */
  public synchronized void freeAll() {
    freeReleased();
    live.values().forEach(Runnable::run);
    live.clear();
  }

  /** Whether Arrow can make a {@link ByteBuffer} view of its memory in this JVM, tried once. */
  private static final class ArrowViews {
    static final boolean AVAILABLE = probe();

    private static boolean probe() {
      try (RootAllocator root = new RootAllocator(64);
          ArrowBuf buffer = root.buffer(8)) {
        return buffer.nioBuffer(0, 8).capacity() == 8;
      } catch (RuntimeException | LinkageError e) {
        return false;
      }
    }
  }
}
