package dev.lakeops.cost;

import static java.util.Objects.requireNonNull;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Counts the object storage requests of the whole process: {@link ObjectRequestInterceptor}, which
 * the AWS SDK attaches to every client it builds, reports each HTTP attempt's start and end here. A
 * run opens a {@link RequestWindow} when it starts and closes it when it ends; overlapping windows
 * (runs of the daemon at once) each see every request made while they were open.
 *
 * <p>Totals only grow, and the area under the requests-in-flight curve is kept up to date at every
 * change, so a window is the difference of two readings; only the peak needs the window to be
 * registered while open.
 */
public final class ObjectRequestMeter {
  private static final ObjectRequestMeter PROCESS = new ObjectRequestMeter(System::nanoTime);

  private final LongSupplier nanoClock;
  private final long[] requests = new long[RequestKind.values().length];
  private final Set<RequestWindow> openWindows = Collections.newSetFromMap(new IdentityHashMap<>());
  private long bytesRead;
  private long bytesWritten;
  private long inFlight;
  private long inFlightNanos;
  private long lastChangeNanos;

  private ObjectRequestMeter(LongSupplier nanoClock) {
    this.nanoClock = requireNonNull(nanoClock, "nanoClock is null");
    this.lastChangeNanos = nanoClock.getAsLong();
  }

  /** The meter every AWS SDK client of this process (of this class loader) reports to. */
  public static ObjectRequestMeter process() {
    return PROCESS;
  }

  /** Starts watching: the window sees every request from now until it is closed. */
  public RequestWindow open() {
    long cpuNanos = ProcessCpu.nanos();
    synchronized (this) {
      RequestWindow window = new RequestWindow(this, readLocked(), inFlight, cpuNanos);
      openWindows.add(window);
      return window;
    }
  }

  /** An HTTP attempt of {@code kind} was sent, carrying {@code bytesSent} object bytes. */
  synchronized void attemptStarted(RequestKind kind, long bytesSent) {
    advanceLocked();
    requests[kind.ordinal()]++;
    bytesWritten += Math.max(0, bytesSent);
    inFlight++;
    for (RequestWindow window : openWindows) {
      window.inFlightNow(inFlight);
    }
  }

  /** An HTTP attempt ended (answered or failed), its response carrying {@code bytesReceived}. */
  synchronized void attemptFinished(long bytesReceived) {
    advanceLocked();
    bytesRead += Math.max(0, bytesReceived);
    inFlight = Math.max(0, inFlight - 1);
  }

  /** Requests in flight right now. */
  public synchronized long inFlight() {
    return inFlight;
  }

  synchronized MeterReading closeWindow(RequestWindow window) {
    openWindows.remove(window);
    return readLocked();
  }

  private MeterReading readLocked() {
    advanceLocked();
    return new MeterReading(
        requests.clone(), bytesRead, bytesWritten, inFlightNanos, lastChangeNanos);
  }

  /** Adds the time since the last change, at the in-flight count of that time, to the area. */
  private void advanceLocked() {
    long now = nanoClock.getAsLong();
    inFlightNanos += inFlight * Math.max(0, now - lastChangeNanos);
    lastChangeNanos = now;
  }
}
