package dev.lakeops.control;

import static java.util.Objects.requireNonNull;

import java.io.PrintStream;
import java.time.Clock;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/**
 * The daemon's log: one line per decision and per run on standard error, e.g. {@code
 * 2026-12-03T08:00:00Z lakeops serve: db.events compact due: day=2026-12-01: 41 small files >= 12}.
 */
final class DaemonLog {
  private final PrintStream out;
  private final Clock clock;

  DaemonLog(PrintStream out, Clock clock) {
    this.out = requireNonNull(out, "out is null");
    this.clock = requireNonNull(clock, "clock is null");
  }

  /** A line about one table. */
  void table(String table, String message) {
    note(table + " " + message);
  }

  /** A line about the daemon itself. */
  synchronized void note(String message) {
    out.println(
        DateTimeFormatter.ISO_INSTANT.format(clock.instant().truncatedTo(ChronoUnit.MILLIS))
            + " lakeops serve: "
            + message);
    out.flush();
  }

  static String oneLine(Throwable throwable) {
    return dev.lakeops.ledger.LedgerWarnings.oneLine(throwable);
  }
}
