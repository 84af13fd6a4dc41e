package dev.lakeops.cost;

import static java.util.Objects.requireNonNull;

import dev.lakeops.ledger.RunCost;

/**
 * The requests, bytes, requests in flight and CPU time of the process between {@link
 * ObjectRequestMeter#open()} and {@link #close()}. Close it in a {@code finally}: an open window is
 * kept by the meter. Closing twice returns the first figures.
 */
public final class RequestWindow {
  private final ObjectRequestMeter meter;
  private final MeterReading opened;
  private final long cpuNanosAtOpen;
  private long inFlightPeak;
  private RunCost closed;

  RequestWindow(
      ObjectRequestMeter meter, MeterReading opened, long inFlightAtOpen, long cpuNanosAtOpen) {
    this.meter = requireNonNull(meter, "meter is null");
    this.opened = requireNonNull(opened, "opened is null");
    this.inFlightPeak = inFlightAtOpen;
    this.cpuNanosAtOpen = cpuNanosAtOpen;
  }

  /** Called by the meter, under its lock, whenever the requests in flight grow. */
  void inFlightNow(long inFlight) {
    inFlightPeak = Math.max(inFlightPeak, inFlight);
  }

  /** Stops watching and returns what happened while the window was open. */
  public RunCost close() {
    synchronized (meter) {
      if (closed != null) {
        return closed;
      }
      MeterReading now = meter.closeWindow(this);
      long cpuNanos = Math.max(0, ProcessCpu.nanos() - cpuNanosAtOpen);
      long wallNanos = now.nanos() - opened.nanos();
      double inFlightMean =
          wallNanos <= 0 ? 0 : (double) (now.inFlightNanos() - opened.inFlightNanos()) / wallNanos;
      closed =
          new RunCost(
              now.requestsSince(opened),
              now.bytesRead() - opened.bytesRead(),
              now.bytesWritten() - opened.bytesWritten(),
              inFlightPeak,
              inFlightMean,
              cpuNanos / 1e9);
      return closed;
    }
  }
}
