package dev.lakeops.io;

import static java.util.Objects.requireNonNull;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.OutOfMemoryException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.SeekableInputStream;

/**
 * Fetches a rewrite's input files ahead of the rewrite, each with ONE request for the whole object,
 * up to {@link ObjectReadOptions#maxConcurrentRequests()} requests in flight whatever the number of
 * cores. Inputs are fetched in the order given (the order the file groups run in), so the next
 * files of a group, and the next groups, arrive while the current ones are merged.
 *
 * <p>Fetched bytes go into memory charged to {@code memory}, a child of the run's budget, reserved
 * when the request starts. A request starts while its bytes fit in that memory; beyond it, into a
 * local copy in the spill directory (up to {@value #DISK_LOOKAHEAD_BYTES} bytes beyond the memory
 * limit), only for a file of a group that has started, whose reader needs it now (a group reads
 * every input's footer before it merges), or while fewer than {@value #MIN_FILES_AHEAD} files are
 * held (memory too small for a few objects). Files of groups yet to start wait for memory: copying
 * them to disk ahead of time would only cost CPU. A reader never waits for a file whose request has
 * not started: {@link #fetched} then answers empty and the reader reads the object store directly,
 * so a group larger than the lookahead still makes progress.
 */
public final class InputPrefetcher implements AutoCloseable {
  /** Local copies held at most beyond the memory set aside for fetching. */
  static final long DISK_LOOKAHEAD_BYTES = 2L << 30;

  /** Files fetched ahead at least, into local copies where memory cannot hold them. */
  static final int MIN_FILES_AHEAD = 8;

  private static final int COPY_BUFFER_BYTES = 256 * 1024;
  private static final long CLOSE_WAIT_SECONDS = 60;

  /** How long a reader waits for a queued file to start before reading it itself. */
  private static final Duration QUEUED_WAIT = Duration.ofSeconds(5);

  private final FileIO io;
  private final BufferAllocator memory;
  private final Path spillDirectory;
  private final int maxConcurrentRequests;
  private final long lookaheadBytes;
  private final ExecutorService requests;
  private final Map<String, Entry> entries = new HashMap<>();
  private final Map<Integer, List<Entry>> entriesByGroup = new HashMap<>();
  private final LinkedHashSet<Entry> pending = new LinkedHashSet<>();
  private final Set<Integer> activeGroups = new LinkedHashSet<>();
  private int inFlight;
  private long heldBytes;
  private int heldFiles;
  private boolean closed;

  private InputPrefetcher(
      FileIO io,
      List<PrefetchInput> inputs,
      ObjectReadOptions options,
      BufferAllocator memory,
      Path spillDirectory) {
    this.io = requireNonNull(io, "io is null");
    this.memory = requireNonNull(memory, "memory is null");
    this.spillDirectory = requireNonNull(spillDirectory, "spillDirectory is null");
    this.maxConcurrentRequests = options.maxConcurrentRequests();
    this.lookaheadBytes = memory.getLimit() + DISK_LOOKAHEAD_BYTES;
    for (PrefetchInput input : inputs) {
      if (input.length() > options.wholeObjectReadBytes()
          || entries.containsKey(input.location())) {
        continue;
      }
      Entry entry = new Entry(input);
      entries.put(input.location(), entry);
      entriesByGroup.computeIfAbsent(input.group(), group -> new ArrayList<>()).add(entry);
      pending.add(entry);
    }
    AtomicInteger threadNumber = new AtomicInteger();
    this.requests =
        Executors.newFixedThreadPool(
            maxConcurrentRequests,
            runnable -> {
              Thread thread =
                  new Thread(runnable, "lakeops-fetch-" + threadNumber.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            });
  }

  /**
   * Starts fetching {@code inputs} (those up to {@link ObjectReadOptions#wholeObjectReadBytes()})
   * through {@code io}.
   *
   * @param memory where fetched bytes are charged; its limit is the memory fetching may hold
   * @param spillDirectory where local copies go once that memory is taken
   */
  public static InputPrefetcher start(
      FileIO io,
      List<PrefetchInput> inputs,
      ObjectReadOptions options,
      BufferAllocator memory,
      Path spillDirectory) {
    requireNonNull(inputs, "inputs is null");
    requireNonNull(options, "options is null");
    InputPrefetcher prefetcher = new InputPrefetcher(io, inputs, options, memory, spillDirectory);
    synchronized (prefetcher) {
      prefetcher.startRequests();
    }
    return prefetcher;
  }

  /**
   * The bytes of {@code location} as an input file, waiting for its request if it is in flight or
   * about to start; empty when the file is not fetched ahead (not one of the inputs, too large,
   * failed, released, or too far back in the queue to wait for): the caller then reads the object
   * store itself.
   */
  public Optional<ReleasableInputFile> fetched(String location, InputFile direct) {
    requireNonNull(location, "location is null");
    requireNonNull(direct, "direct is null");
    CompletableFuture<FetchedObject> result;
    synchronized (this) {
      Entry entry = entries.get(location);
      if (entry == null || closed) {
        return Optional.empty();
      }
      switch (entry.state) {
        case PENDING -> {
          if (!startsSoon(entry)) {
            pending.remove(entry);
            entry.state = State.READ_DIRECTLY;
            return Optional.empty();
          }
          result = entry.result;
        }
        case FETCHING, FETCHED -> result = entry.result;
        default -> {
          return Optional.empty();
        }
      }
    }
    Optional<FetchedObject> object = await(location, result);
    return object.map(
        fetched -> new FetchedInputFile(location, fetched, direct, () -> release(location)));
  }

  /**
   * The fetched object once it arrives; empty when its fetch failed (the reader's own request then
   * reports the problem, with the reader's context) or when it is still queued after {@link
   * #QUEUED_WAIT}, which only a lookahead filled by files nobody gives back can cause.
   */
  private Optional<FetchedObject> await(String location, CompletableFuture<FetchedObject> result) {
    while (true) {
      try {
        return Optional.of(result.get(QUEUED_WAIT.toMillis(), TimeUnit.MILLISECONDS));
      } catch (ExecutionException e) {
        return Optional.empty();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return Optional.empty();
      } catch (TimeoutException e) {
        synchronized (this) {
          Entry entry = entries.get(location);
          if (entry.state == State.PENDING) {
            pending.remove(entry);
            entry.state = State.READ_DIRECTLY;
            return Optional.empty();
          }
        }
      }
    }
  }

  /**
   * The group is starting: its files move to the front of the queue, taking turns with the other
   * groups running, so each group finds its next files in flight rather than queued behind another
   * group's.
   */
  public synchronized void groupStarted(int group) {
    activeGroups.add(group);
    List<List<Entry>> active = new ArrayList<>();
    for (int activeGroup : activeGroups) {
      List<Entry> queued = new ArrayList<>();
      for (Entry entry : entriesByGroup.getOrDefault(activeGroup, List.of())) {
        if (entry.state == State.PENDING) {
          queued.add(entry);
        }
      }
      active.add(queued);
    }
    LinkedHashSet<Entry> reordered = new LinkedHashSet<>();
    for (int turn = 0; ; turn++) {
      boolean any = false;
      for (List<Entry> queued : active) {
        if (turn < queued.size()) {
          reordered.add(queued.get(turn));
          any = true;
        }
      }
      if (!any) {
        break;
      }
    }
    reordered.addAll(pending);
    pending.clear();
    pending.addAll(reordered);
    startRequests();
  }

  /** Gives back what {@code location} holds; a request in flight gives it back on arrival. */
  public synchronized void release(String location) {
    Entry entry = entries.get(requireNonNull(location, "location is null"));
    if (entry != null) {
      releaseEntry(entry);
      startRequests();
    }
  }

  /** Gives back what the files of group {@code group} hold: the group is done. */
  public synchronized void releaseGroup(int group) {
    activeGroups.remove(group);
    for (Entry entry : entriesByGroup.getOrDefault(group, List.of())) {
      releaseEntry(entry);
    }
    startRequests();
  }

  /** Bytes fetched or in flight and not yet released. */
  synchronized long heldBytes() {
    return heldBytes;
  }

  /**
   * Stops fetching, waits for the requests in flight and gives back everything held, so the memory
   * allocator can be closed next.
   */
  @Override
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      pending.clear();
      for (Entry entry : entries.values()) {
        releaseEntry(entry);
      }
    }
    // a request queued behind a finishing one never started: run it here, where it gives its
    // reserved memory back without fetching
    requests.shutdownNow().forEach(Runnable::run);
    try {
      requests.awaitTermination(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private synchronized boolean isClosed() {
    return closed;
  }

  private void releaseEntry(Entry entry) {
    switch (entry.state) {
      case PENDING -> {
        pending.remove(entry);
        entry.state = State.RELEASED;
      }
      case FETCHING -> entry.state = State.RELEASE_ON_ARRIVAL;
      case FETCHED -> {
        entry.state = State.RELEASED;
        heldBytes -= entry.input.length();
        heldFiles--;
        entry.result.join().release();
      }
      default -> {
        // nothing held
      }
    }
  }

  /**
   * Whether the queued {@code entry} is among the next requests to start, within the lookahead, so
   * that waiting for it costs less than reading it directly.
   */
  private boolean startsSoon(Entry entry) {
    long bytes = heldBytes;
    int position = 0;
    for (Entry queued : pending) {
      bytes += queued.input.length();
      if (position++ >= maxConcurrentRequests
          || (bytes > lookaheadBytes && bytes > entry.input.length())) {
        return false;
      }
      if (queued == entry) {
        return true;
      }
    }
    return false;
  }

  /**
   * Starts requests while fewer than the maximum are in flight and the next file's bytes fit in
   * memory, or, with only a few files ahead, in the lookahead of local copies.
   */
  private void startRequests() {
    while (!closed && inFlight < maxConcurrentRequests && !pending.isEmpty()) {
      Entry next = pending.iterator().next();
      ArrowBuf reservation = reserve(next.input.length());
      if (reservation == null && heldFiles > 0 && !mayCopyToDisk(next)) {
        return;
      }
      pending.remove(next);
      next.state = State.FETCHING;
      inFlight++;
      heldFiles++;
      heldBytes += next.input.length();
      requests.execute(() -> fetchAndRecord(next, Optional.ofNullable(reservation)));
    }
  }

  /** Whether {@code next}, which memory cannot hold now, may be fetched into a local copy. */
  private boolean mayCopyToDisk(Entry next) {
    return heldBytes + next.input.length() <= lookaheadBytes
        && (heldFiles < MIN_FILES_AHEAD || activeGroups.contains(next.input.group()));
  }

  private void fetchAndRecord(Entry entry, Optional<ArrowBuf> reservation) {
    FetchedObject object = null;
    Throwable failure = null;
    if (isClosed()) {
      reservation.ifPresent(ArrowBuf::close);
      failure = new CancellationException("Fetching ahead was closed");
    } else {
      try {
        object = fetch(entry.input, reservation);
      } catch (RuntimeException | IOException | Error e) {
        failure = e;
      }
    }
    synchronized (this) {
      inFlight--;
      if (failure != null) {
        heldBytes -= entry.input.length();
        heldFiles--;
        entry.state = State.FAILED;
        entry.result.completeExceptionally(failure);
      } else if (entry.state == State.RELEASE_ON_ARRIVAL || closed) {
        heldBytes -= entry.input.length();
        heldFiles--;
        entry.state = State.RELEASED;
        object.release();
        entry.result.complete(object);
      } else {
        entry.state = State.FETCHED;
        entry.result.complete(object);
      }
      startRequests();
    }
  }

  /**
   * The whole object with one request: into the memory of {@code reservation} when there is one,
   * else to disk. The reservation is given back if the request fails.
   */
  private FetchedObject fetch(PrefetchInput input, Optional<ArrowBuf> reservation)
      throws IOException {
    InputFile file = io.newInputFile(input.location(), input.length());
    if (reservation.isPresent()) {
      ArrowBuf buffer = reservation.get();
      try (SeekableInputStream stream = file.newStream()) {
        readFully(stream, buffer, input);
        return new InMemoryObject(buffer, input.length());
      } catch (IOException | RuntimeException | Error e) {
        reservation.get().close();
        throw e;
      }
    }
    Path copy = Files.createTempFile(spillDirectory, "lakeops-fetched-", ".bin");
    try (InputStream stream = file.newStream();
        OutputStream out = Files.newOutputStream(copy)) {
      long copied = copy(stream, out);
      if (copied != input.length()) {
        throw new IOException(
            "Read "
                + copied
                + " bytes of "
                + input.location()
                + ", whose metadata records "
                + input.length());
      }
      return new LocalCopyObject(copy, input.length());
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(copy);
      throw e;
    }
  }

  /** Reads the whole object into {@code buffer} through a small heap chunk. */
  private static void readFully(InputStream stream, ArrowBuf buffer, PrefetchInput input)
      throws IOException {
    byte[] chunk = new byte[(int) Math.min(COPY_BUFFER_BYTES, Math.max(1, input.length()))];
    long filled = 0;
    while (filled < input.length()) {
      int read = stream.read(chunk, 0, (int) Math.min(chunk.length, input.length() - filled));
      if (read < 0) {
        throw new EOFException(
            "Read "
                + filled
                + " bytes of "
                + input.location()
                + ", whose metadata records "
                + input.length());
      }
      buffer.setBytes(filled, chunk, 0, read);
      filled += read;
    }
  }

  /** A buffer charging {@code length} bytes to the budget; null when it is taken. */
  private ArrowBuf reserve(long length) {
    if (length > Integer.MAX_VALUE - 64) {
      return null;
    }
    try {
      return memory.buffer(Math.max(1, length));
    } catch (OutOfMemoryException e) {
      return null;
    }
  }

  private static long copy(InputStream stream, OutputStream out) throws IOException {
    byte[] buffer = new byte[COPY_BUFFER_BYTES];
    long total = 0;
    int read;
    while ((read = stream.read(buffer)) >= 0) {
      out.write(buffer, 0, read);
      total += read;
    }
    return total;
  }

  private enum State {
    PENDING,
    FETCHING,
    FETCHED,
    RELEASE_ON_ARRIVAL,
    READ_DIRECTLY,
    FAILED,
    RELEASED
  }

  /** One input and where its fetch stands; guarded by the prefetcher's lock. */
  private static final class Entry {
    private final PrefetchInput input;
    private final CompletableFuture<FetchedObject> result = new CompletableFuture<>();
    private State state = State.PENDING;

    Entry(PrefetchInput input) {
      this.input = input;
    }
  }
}
