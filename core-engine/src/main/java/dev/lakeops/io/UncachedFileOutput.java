package dev.lakeops.io;

import static java.util.Objects.requireNonNull;

import com.google.common.util.concurrent.ThreadFactoryBuilder;
import com.google.common.util.concurrent.Uninterruptibles;
import com.sun.nio.file.ExtendedOpenOption;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A new local file written once, front to back, past the page cache where the file system allows it
 * ({@code O_DIRECT}): spill runs and the data files a rewrite writes to a local warehouse. Bytes
 * are gathered in a block-aligned buffer of {@value #BUFFER_BYTES} bytes and written a whole buffer
 * at a time; the last partial block goes through the page cache. Copying a write into the page
 * cache is what the kernel spends most of a rewrite's system time on, and on some machines it is
 * slow (measured on a 2-processor virtual machine: 1 MiB writes at about 300 MB/s of kernel time
 * through the cache, 1.8 GB/s past it); the file is read at most once more, later, so the cache
 * holds nothing worth the copy. Where the file system refuses {@code O_DIRECT} (tmpfs, some network
 * file systems), every byte goes through the cache as with any stream.
 *
 * <p>A direct write returns only once the device has the bytes, so a full buffer is written by a
 * background thread while the writer fills a second buffer: the writer waits only when the device
 * is slower than it (measured: a v3 binpack's rewrite threads spent a seventh of their time waiting
 * in direct writes before). At most one buffer per file is in flight.
 */
public final class UncachedFileOutput extends OutputStream {
  /** The gathering buffer: a write of this many bytes is one system call. */
  static final int BUFFER_BYTES = 1 << 20;

  /**
   * The least alignment of direct writes, whatever block size the file system reports: a device of
   * 4 KiB sectors under a file system of smaller blocks needs it, and 1 MiB is a multiple.
   */
  private static final int LEAST_ALIGNMENT = 4096;

  /** The largest block size a direct write is aligned to; larger ones go through the cache. */
  private static final int LARGEST_ALIGNMENT = 64 * 1024;

  /**
   * Set to {@code false} ({@code -Dlakeops.uncachedWrites=false}) to write every file through the
   * page cache, for a file system whose direct writes are slow.
   */
  static final String ENABLED_PROPERTY = "lakeops.uncachedWrites";

  /** Buffers of files closed, for the next files to reuse: direct memory is freed only by GC. */
  private static final BlockingQueue<ByteBuffer> IDLE_BUFFERS = new ArrayBlockingQueue<>(8);

  /** The threads that write full buffers past the cache, shared by all files; idle ones end. */
  private static final Executor BACKGROUND_WRITES =
      Executors.newCachedThreadPool(
          new ThreadFactoryBuilder()
              .setNameFormat("lakeops-direct-write-%d")
              .setDaemon(true)
              .build());

  private static final Future<Void> DONE = CompletableFuture.completedFuture(null);

  private final Path file;
  private final FileChannel cached;
  private final FileChannel direct;
  private final int alignment;

  /** The buffer being filled; null once closed. */
  private ByteBuffer buffer;

  /** The buffer a background thread is writing, or null. */
  private ByteBuffer writingBuffer;

  /** The background write of {@link #writingBuffer}; done when there is none. */
  private Future<Void> backgroundWrite = DONE;

  /** Where the buffer being filled starts in the file. */
  private long position;

  /** Whether a direct write failed: the rest of the file then goes through the cache. */
  private volatile boolean directFailed;

  private boolean closed;

  private UncachedFileOutput(Path file, FileChannel cached, FileChannel direct, int alignment) {
    this.file = file;
    this.cached = cached;
    this.direct = direct;
    this.alignment = alignment;
    this.buffer = direct == null ? ByteBuffer.allocate(BUFFER_BYTES) : borrowAligned(alignment);
  }

  /**
   * Creates {@code file}; with {@code overwrite}, an existing file is truncated, otherwise it is an
   * error ({@link java.nio.file.FileAlreadyExistsException}). The parent directory must exist.
   */
  public static UncachedFileOutput create(Path file, boolean overwrite) throws IOException {
    return create(file, overwrite, !"false".equalsIgnoreCase(System.getProperty(ENABLED_PROPERTY)));
  }

  /** Like {@link #create(Path, boolean)}; without {@code tryDirect}, all through the cache. */
  static UncachedFileOutput create(Path file, boolean overwrite, boolean tryDirect)
      throws IOException {
    requireNonNull(file, "file is null");
    FileChannel cached =
        overwrite
            ? FileChannel.open(
                file,
                StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE)
            : FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    int alignment = tryDirect ? directAlignment(file) : 0;
    FileChannel direct = alignment > 0 ? openDirect(file) : null;
    try {
      return new UncachedFileOutput(file, cached, direct, direct == null ? 0 : alignment);
    } catch (RuntimeException | Error e) {
      // the buffer could not be had (direct memory)
      try (cached;
          FileChannel closingDirect = direct) {
        throw e;
      }
    }
  }

  /** Whether whole blocks bypass the page cache (false where the file system refused). */
  public boolean bypassesCache() {
    return direct != null && !directFailed;
  }

  /** Bytes written so far. */
  public long position() {
    return buffer == null ? position : position + buffer.position();
  }

  @Override
  public void write(int value) throws IOException {
    if (!buffer.hasRemaining()) {
      drainFull();
    }
    buffer.put((byte) value);
  }

  @Override
  public void write(byte[] source, int offset, int length) throws IOException {
    int written = 0;
    while (written < length) {
      if (!buffer.hasRemaining()) {
        drainFull();
      }
      int chunk = Math.min(length - written, buffer.remaining());
      buffer.put(source, offset + written, chunk);
      written += chunk;
    }
  }

  /**
   * Hands the full buffer to a background thread and goes on with the other buffer, once that one's
   * earlier write is done. Without direct writes, writes it here through the cache.
   */
  private void drainFull() throws IOException {
    if (direct == null || directFailed) {
      drain();
      return;
    }
    awaitBackgroundWrite();
    ByteBuffer next = writingBuffer == null ? borrowAligned(alignment) : writingBuffer.clear();
    ByteBuffer full = buffer.flip();
    long start = position;
    position += full.remaining();
    buffer = next;
    writingBuffer = full;
    // the pool is never shut down and makes a thread when none is idle: it takes every write
    backgroundWrite =
        CompletableFuture.runAsync(
            () -> {
              try {
                writeBlocks(full, start);
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            },
            BACKGROUND_WRITES);
  }

  /**
   * Writes {@code blocks} (whole blocks) at {@code start}: past the cache while direct writes work,
   * through it once one fails (a file system that takes {@code O_DIRECT} when opening but not when
   * writing), for the rest of the file.
   */
  private void writeBlocks(ByteBuffer blocks, long start) throws IOException {
    long at = start;
    if (!directFailed) {
      try {
        while (blocks.hasRemaining()) {
          at += direct.write(blocks, at);
        }
        return;
      } catch (IOException e) {
        directFailed = true;
      }
    }
    while (blocks.hasRemaining()) {
      at += cached.write(blocks, at);
    }
  }

  /** Waits for the buffer in flight to be written; its failure is this stream's. */
  private void awaitBackgroundWrite() throws IOException {
    Future<Void> inFlight = backgroundWrite;
    backgroundWrite = DONE;
    try {
      Uninterruptibles.getUninterruptibly(inFlight);
    } catch (ExecutionException e) {
      throw failure(
          e.getCause() instanceof UncheckedIOException failed ? failed.getCause() : e.getCause());
    }
  }

  /**
   * Writes what the buffer holds, and empties it: its whole blocks past the cache, a partial block
   * at the end through it.
   */
  private void drain() throws IOException {
    awaitBackgroundWrite();
    int length = buffer.position();
    int wholeBlocks = direct == null ? 0 : length / alignment * alignment;
    buffer.flip();
    try {
      if (wholeBlocks > 0) {
        buffer.limit(wholeBlocks);
        writeBlocks(buffer, position);
        position += wholeBlocks;
        buffer.limit(length);
      }
      while (buffer.hasRemaining()) {
        position += cached.write(buffer, position);
      }
    } catch (IOException e) {
      throw failure(e);
    }
    buffer.clear();
  }

  /** A failed write, naming this file. */
  private IOException failure(Throwable cause) {
    String reason =
        cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
    return new IOException("cannot write " + file + ": " + reason, cause);
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try (FileChannel closingCached = cached;
        FileChannel closingDirect = direct) {
      drain();
    } finally {
      // drain waited for the write in flight, whatever its outcome: both buffers are idle
      if (direct != null) {
        IDLE_BUFFERS.offer(buffer.clear());
        if (writingBuffer != null) {
          IDLE_BUFFERS.offer(writingBuffer.clear());
        }
      }
      buffer = null;
      writingBuffer = null;
    }
  }

  @Override
  public String toString() {
    return file + (bypassesCache() ? " (past the page cache)" : " (through the page cache)");
  }

  /**
   * The block size direct writes to {@code file} must be aligned to, or 0 where the file system
   * reports none that a buffer can be aligned to.
   */
  private static int directAlignment(Path file) {
    try {
      long blockSize = Files.getFileStore(file).getBlockSize();
      boolean usable =
          blockSize > 0
              && blockSize <= LARGEST_ALIGNMENT
              && Long.bitCount(blockSize) == 1
              && BUFFER_BYTES % blockSize == 0;
      return usable ? (int) Math.max(blockSize, LEAST_ALIGNMENT) : 0;
    } catch (IOException | UnsupportedOperationException e) {
      return 0;
    }
  }

  /** A second channel on the new file that writes past the cache, or null where refused. */
  private static FileChannel openDirect(Path file) {
    OpenOption[] options = {StandardOpenOption.WRITE, ExtendedOpenOption.DIRECT};
    try {
      return FileChannel.open(file, options);
    } catch (IOException | UnsupportedOperationException e) {
      return null;
    }
  }

  /** An idle buffer aligned to {@code alignment}, or a new one. */
  private static ByteBuffer borrowAligned(int alignment) {
    ByteBuffer idle = IDLE_BUFFERS.poll();
    while (idle != null) {
      if (idle.alignmentOffset(0, alignment) == 0 && idle.capacity() == BUFFER_BYTES) {
        return idle;
      }
      idle = IDLE_BUFFERS.poll();
    }
    return ByteBuffer.allocateDirect(BUFFER_BYTES + alignment)
        .alignedSlice(alignment)
        .limit(BUFFER_BYTES)
        .slice();
  }
}
