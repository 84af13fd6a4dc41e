package dev.lakeops.cli;

import java.util.ArrayList;
import java.util.List;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * SIGTERM and SIGINT ask {@code serve} to stop. A signal handler rather than a JVM shutdown hook:
 * during shutdown the JVM has already stopped Iceberg's own executors (its commit lock manager and
 * worker pools exit with the JVM), so work could not finish its commit within the grace period. The
 * daemon stops, the command returns, and the process exits 0. Closing restores the handlers that
 * were there before.
 */
final class StopSignals implements AutoCloseable {
  private final List<Signal> signals = new ArrayList<>();
  private final List<SignalHandler> previous = new ArrayList<>();

  private StopSignals() {}

  static StopSignals onTermOrInterrupt(Runnable stop) {
    StopSignals installed = new StopSignals();
    for (String name : new String[] {"TERM", "INT"}) {
      try {
        Signal signal = new Signal(name);
        installed.previous.add(Signal.handle(signal, ignored -> stop.run()));
        installed.signals.add(signal);
      } catch (IllegalArgumentException unsupported) {
        // a platform without this signal: the default handling applies
      }
    }
    return installed;
  }

  @Override
  public void close() {
    for (int index = 0; index < signals.size(); index++) {
      Signal.handle(signals.get(index), previous.get(index));
    }
  }
}
