package dev.lakeops.rewrite.sort;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Reads a file group's input on a thread of its own, a batch ahead of the sort: decoding (and what
 * the reader does with each batch, such as checksumming it) and sorting overlap, so a group keeps
 * two cores busy while rows come in when it has them to itself (the only group of a table with one
 * partition, or the last one running). Batches are handed over through a queue of one; each batch
 * belongs to whoever holds it, and one that is not handed over (the sort stopped, or the reader
 * failed) is closed by the pipeline.
 */
final class InputPipeline implements AutoCloseable {
  /** What the reader thread runs: every batch it reads goes to the sink, in order. */
  interface BatchSource {
    void readInto(BatchSink sink) throws IOException;
  }

  /** Takes a batch over; throws when the sort no longer wants batches. */
  interface BatchSink {
    void accept(VectorSchemaRoot batch) throws IOException;
  }

  private static final Object END = new Object();

  private final BlockingQueue<Object> handOver = new ArrayBlockingQueue<>(1);
  private final Thread thread;
  private volatile Throwable failure;
  private volatile boolean stopped;
  private boolean ended;

  private InputPipeline(String name, BatchSource source) {
    this.thread = new Thread(() -> run(source), name);
    thread.setDaemon(true);
  }

  /** Starts reading {@code source} on a thread named {@code name}. */
  static InputPipeline start(String name, BatchSource source) {
    InputPipeline pipeline = new InputPipeline(name, requireNonNull(source, "source is null"));
    pipeline.thread.start();
    return pipeline;
  }

  /**
   * The next batch, now the caller's, or {@code null} once every batch was read; throws what the
   * reader failed with.
   */
  VectorSchemaRoot next() throws IOException {
    if (ended) {
      return null;
    }
    Object next;
    try {
      next = handOver.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("Interrupted while waiting for the sort's input");
    }
    if (next == END) {
      ended = true;
      rethrowFailure();
      return null;
    }
    return (VectorSchemaRoot) next;
  }

  private void run(BatchSource source) {
    try {
      source.readInto(this::handOver);
    } catch (Throwable e) {
      failure = e;
    } finally {
      try {
        while (!stopped && !handOver.offer(END, 50, java.util.concurrent.TimeUnit.MILLISECONDS)) {
          // the sort has not taken the last batch yet
        }
      } catch (InterruptedException e) {
        // stopped: nobody waits for the end
      }
    }
  }

  private void handOver(VectorSchemaRoot batch) throws IOException {
    try {
      while (!stopped) {
        if (handOver.offer(batch, 50, java.util.concurrent.TimeUnit.MILLISECONDS)) {
          return;
        }
      }
    } catch (InterruptedException e) {
      // stopped while waiting
    }
    batch.close();
    throw new InterruptedIOException("The sort stopped taking its input");
  }

  private void rethrowFailure() throws IOException {
    Throwable thrown = failure;
    if (thrown == null) {
      return;
    }
    if (thrown instanceof IOException io) {
      throw io;
    }
    if (thrown instanceof UncheckedIOException unchecked) {
      throw unchecked;
    }
    if (thrown instanceof RuntimeException runtime) {
      throw runtime;
    }
    if (thrown instanceof Error error) {
      throw error;
    }
    throw new IOException(thrown);
  }

  /** Stops the reader, waits for it, and closes any batch it handed over that was not taken. */
  @Override
  public void close() {
    stopped = true;
    thread.interrupt();
    boolean interrupted = false;
    while (thread.isAlive()) {
      try {
        thread.join();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    Object left;
    while ((left = handOver.poll()) != null) {
      if (left instanceof VectorSchemaRoot batch) {
        batch.close();
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
