package dev.lakeops.cli;

import sun.misc.Signal;

/**
 * SIGTERM and SIGINT ask {@code serve} to stop. A signal handler rather than a JVM shutdown hook:
 * during shutdown the JVM has already stopped Iceberg's own executors (its commit lock manager and
 * worker pools exit with the JVM), so work could not finish its commit within the grace period.
 * The daemon stops, the command returns, and the process exits 0.
 */
final class StopSignals {
  private StopSignals() {}

  static void onTermOrInterrupt(Runnable stop) {
    for (String name : new String[] {"TERM", "INT"}) {
      try {
        Signal.handle(new Signal(name), signal -> stop.run());
      } catch (IllegalArgumentException unsupported) {
        // a platform without this signal: the default handling applies
      }
    }
  }
}
