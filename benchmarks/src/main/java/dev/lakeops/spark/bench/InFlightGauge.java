package dev.lakeops.spark.bench;

/**
 * Requests in flight on the server: the peak, and the time-weighted mean between the first request
 * that started and the last that ended since {@link #reset}. A request is in flight from the moment
 * the server's blob store is asked until it answered (for a {@code GET}, until its body was sent).
 */
final class InFlightGauge {
  private long inFlight;
  private long peak;
  private double area;
  private long lastChangeNanos;
  private long firstStartNanos = -1;
  private long lastEndNanos = -1;

  synchronized void enter() {
    advance();
    inFlight++;
    peak = Math.max(peak, inFlight);
    if (firstStartNanos < 0) {
      firstStartNanos = lastChangeNanos;
    }
  }

  synchronized void exit() {
    advance();
    inFlight--;
    lastEndNanos = lastChangeNanos;
  }

  /** Starts a new window; requests still in flight count in it from now on. */
  synchronized void reset() {
    lastChangeNanos = System.nanoTime();
    area = 0;
    peak = inFlight;
    firstStartNanos = inFlight > 0 ? lastChangeNanos : -1;
    lastEndNanos = -1;
  }

  synchronized long peak() {
    return peak;
  }

  /**
   * The mean number of requests in flight between the window's first request and its last, or 0
   * when there was none.
   */
  synchronized double mean() {
    advance();
    long end = inFlight > 0 ? lastChangeNanos : lastEndNanos;
    if (firstStartNanos < 0 || end <= firstStartNanos) {
      return 0;
    }
    return area / (end - firstStartNanos);
  }

  private void advance() {
    long now = System.nanoTime();
    area += (double) inFlight * (now - lastChangeNanos);
    lastChangeNanos = now;
  }
}
