package dev.lakeops.rewrite.read;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.io.FileIO;

/**
 * Brings a file group's local input files into the operating system's page cache ahead of the
 * group's reader, on a daemon thread of its own, so that the reader, which decodes one file after
 * another, finds each in memory instead of waiting for the disk. The files are sent to {@code
 * /dev/null} by the kernel ({@code sendfile}): nothing is copied into the process and no budget is
 * taken. The thread keeps at most {@link #AHEAD_BYTES} ahead of the reader and stops when closed.
 * Files that are not local (object stores, encrypted files) are left to their reader.
 */
public final class LocalReadAhead implements AutoCloseable {
  /** How far ahead of the reader the files are brought in, in bytes. */
  static final long AHEAD_BYTES = 64L << 20;

  private static final Path DISCARD = Path.of("/dev/null");

  private final List<Path> files;

  /** Where each file's first task starts, in the bytes of the tasks before it. */
  private final long[] startBytes;

  private final long aheadBytes;
  private final Thread thread;
  private volatile long readBytes;
  private volatile boolean closed;
  private volatile int filesBroughtIn;

  private LocalReadAhead(List<Path> files, long[] startBytes, long aheadBytes, String name) {
    this.files = files;
    this.startBytes = startBytes;
    this.aheadBytes = aheadBytes;
    this.thread = new Thread(this::bringIn, name);
    thread.setDaemon(true);
  }

  /**
   * Starts bringing in the local files of {@code tasks}, in their order; an idle read-ahead when
   * none is local or the system has no {@code /dev/null}. The reader reports its progress in the
   * bytes of the tasks it has read ({@link FileScanTask#length()}).
   */
  public static LocalReadAhead start(FileIO io, List<FileScanTask> tasks, String name) {
    return start(io, tasks, name, AHEAD_BYTES);
  }

  /** As {@link #start(FileIO, List, String)}, keeping at most {@code aheadBytes} ahead. */
  static LocalReadAhead start(FileIO io, List<FileScanTask> tasks, String name, long aheadBytes) {
    requireNonNull(tasks, "tasks is null");
    ParquetInputFiles inputs = new ParquetInputFiles(requireNonNull(io, "io is null"));
    List<Path> files = new ArrayList<>();
    long[] startBytes = new long[tasks.size()];
    long total = 0;
    for (FileScanTask task : tasks) {
      Optional<Path> local = inputs.localFile(task.file());
      if (local.isPresent() && !files.contains(local.get())) {
        startBytes[files.size()] = total;
        files.add(local.get());
      }
      total += task.length();
    }
    LocalReadAhead readAhead =
        new LocalReadAhead(files, startBytes, aheadBytes, "lakeops-read-ahead-" + name);
    if (!files.isEmpty() && DISCARD.toFile().exists()) {
      readAhead.thread.start();
    }
    return readAhead;
  }

  /** Tells the read-ahead that the reader has gone through {@code bytes} of the tasks. */
  public void read(long bytes) {
    readBytes = bytes;
    LockSupport.unpark(thread);
  }

  private void bringIn() {
    try (FileChannel discard = FileChannel.open(DISCARD, StandardOpenOption.WRITE)) {
      for (int index = 0; index < files.size() && !closed; index++) {
        while (!closed && startBytes[index] - readBytes > aheadBytes) {
          LockSupport.parkNanos(this, 50_000_000L);
        }
        if (closed) {
          return;
        }
        try (FileChannel file = FileChannel.open(files.get(index), StandardOpenOption.READ)) {
          long size = file.size();
          for (long position = 0; position < size && !closed; ) {
            long sent = file.transferTo(position, size - position, discard);
            if (sent <= 0) {
              break;
            }
            position += sent;
          }
          filesBroughtIn = index + 1;
        } catch (IOException e) {
          // the reader opens the file itself and reports what is wrong with it
        }
      }
    } catch (IOException e) {
      // no read-ahead: the reader reads from the disk as it would without one
    }
  }

  /** How many of the local files, from the first, have been brought in so far. */
  int filesBroughtIn() {
    return filesBroughtIn;
  }

  @Override
  public void close() {
    closed = true;
    LockSupport.unpark(thread);
  }
}
