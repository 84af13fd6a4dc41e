package dev.lakeops.rewrite.sort;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Schema;

/**
 * Takes a group's sorted rows one by one, gathers them into batches of {@link #BATCH_ROWS} rows of
 * the table's columns (the sorted rows' key column is not copied: the files do not hold it) and
 * hands each full batch to a {@link SortedFileWriter}. Written on the merging thread by default;
 * once {@link #overlapWrites} is called, batches are encoded and compressed on a thread of their
 * own while the next batch is merged and gathered into a second slot, so a group with a processor
 * to itself keeps two busy while rows go out.
 */
final class SortedFileOutput implements RowSink, AutoCloseable {
  static final int BATCH_ROWS = 2048;

  private final SortedFileWriter writer;
  private final OutputSlot[] slots;
  private int filling;
  private ExecutorService writerThread;
  private Future<?> inFlight;

  /**
   * @param writeSchema the files' schema; the rows given hold its columns other than {@code
   *     constants}, in its order
   */
  SortedFileOutput(
      SortedFileWriter writer,
      Schema writeSchema,
      ConstantColumns constants,
      BufferAllocator allocator) {
    this.writer = requireNonNull(writer, "writer is null");
    this.slots = new OutputSlot[2];
    try {
      for (int index = 0; index < slots.length; index++) {
        slots[index] = new OutputSlot(writeSchema, constants, allocator, BATCH_ROWS);
      }
    } catch (RuntimeException e) {
      closeSlots();
      throw e;
    }
  }

  /**
   * Writes the batches from now on on a thread named {@code threadName}, while the next batch is
   * gathered.
   */
  void overlapWrites(String threadName) {
    if (writerThread == null) {
      writerThread =
          Executors.newSingleThreadExecutor(
              runnable -> {
                Thread thread = new Thread(runnable, threadName);
                thread.setDaemon(true);
                return thread;
              });
    }
  }

  @Override
  public void append(SourceColumns source, int row) throws IOException {
    if (slots[filling].gather().add(source, row)) {
      writeFilled();
    }
  }

  @Override
  public void sourcesChanging() {
    slots[filling].gather().copyPending();
  }

  /** Columns the files opened from now on write without trying a dictionary first. */
  void writePlain(Set<String> columns) {
    writer.writePlain(columns);
  }

  /** Writes the last rows and closes the last file; returns every file written, in order. */
  List<DataFile> finish() throws IOException {
    writeFilled();
    awaitWrite();
    return writer.finish();
  }

  /** Files completed so far, for the caller to delete after {@link #abort()}. */
  List<DataFile> written() {
    return writer.written();
  }

  /** Stops writing; the file in progress is deleted, completed files are the caller's to delete. */
  void abort() {
    stopWriterThread();
    writer.abort();
  }

  @Override
  public void close() {
    abort();
    closeSlots();
  }

  /** Hands the slot being filled to the writer and goes on with the other one. */
  private void writeFilled() throws IOException {
    OutputSlot slot = slots[filling];
    if (slot.gather().rows() == 0) {
      return;
    }
    // the rows' values are copied out of the sources here, on the merging thread
    slot.sortedBatch();
    if (writerThread == null) {
      writer.write(slot);
      return;
    }
    awaitWrite();
    inFlight =
        writerThread.submit(
            () -> {
              writer.write(slot);
              return null;
            });
    filling = (filling + 1) % slots.length;
  }

  /** Waits for the batch being written, if any, and throws what writing it failed with. */
  private void awaitWrite() throws IOException {
    if (inFlight == null) {
      return;
    }
    Future<?> waiting = inFlight;
    inFlight = null;
    try {
      waiting.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("Interrupted while writing sorted rows");
    } catch (ExecutionException e) {
      ThreadFailures.rethrow(e.getCause());
    }
  }

  /** Lets the batch being written finish (its outcome no longer matters) and ends the thread. */
  private void stopWriterThread() {
    if (writerThread == null) {
      return;
    }
    try {
      awaitWrite();
    } catch (IOException | RuntimeException ignored) {
      // the caller is already failing: the first failure is the one reported
    }
    writerThread.shutdown();
    boolean interrupted = false;
    while (!writerThread.isTerminated()) {
      try {
        writerThread.awaitTermination(1, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    writerThread = null;
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private void closeSlots() {
    for (OutputSlot slot : slots) {
      if (slot != null) {
        slot.close();
      }
    }
  }
}
