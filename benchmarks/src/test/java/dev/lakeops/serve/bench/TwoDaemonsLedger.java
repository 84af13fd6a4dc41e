package dev.lakeops.serve.bench;

import static java.util.Objects.requireNonNull;

import dev.lakeops.ledger.RunRecord;
import dev.lakeops.ledger.RunStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the run ledger of two daemons sharing a store says: the runs of each member before and after
 * one of them was killed, and whether two runs of one table ever overlapped in time.
 *
 * @param runs every run of the lake, dry runs left out
 * @param killedProcess the {@code pid@machine} of the member killed with {@code kill -9}
 * @param killedAt when it was killed: its runs that the survivor marked abandoned ended then
 */
record TwoDaemonsLedger(List<RunRecord> runs, String killedProcess, Instant killedAt) {
  TwoDaemonsLedger {
    runs = runs.stream().filter(run -> !run.start().dryRun()).toList();
    requireNonNull(killedProcess, "killedProcess is null");
    requireNonNull(killedAt, "killedAt is null");
  }

  /** Two runs of one table whose times overlap. */
  record Overlap(RunRecord earlier, RunRecord later) {
    boolean acrossMembers() {
      return !earlier.process().equals(later.process());
    }

    @Override
    public String toString() {
      return earlier.start().table()
          + ": "
          + earlier.start().operation()
          + " "
          + earlier.runId()
          + " ("
          + earlier.process()
          + ") and "
          + later.start().operation()
          + " "
          + later.runId()
          + " ("
          + later.process()
          + ")";
    }
  }

  /** Succeeded compactions of {@code process} started before the kill ({@code before}) or after. */
  long compactions(String process, boolean before) {
    return runs.stream()
        .filter(run -> run.process().equals(process))
        .filter(run -> run.start().operation().equals("compact"))
        .filter(run -> run.status() == RunStatus.SUCCEEDED)
        .filter(run -> run.started().isBefore(killedAt) == before)
        .count();
  }

  /** Runs of {@code process} other than compactions, lock skips left out. */
  long otherRuns(String process) {
    return runs.stream()
        .filter(run -> run.process().equals(process))
        .filter(run -> !run.start().operation().equals("compact"))
        .filter(run -> !lockSkip(run))
        .count();
  }

  /** Runs recorded as skipped because the table's lock was held (by the other member). */
  long lockSkips() {
    return runs.stream().filter(TwoDaemonsLedger::lockSkip).count();
  }

  /** Runs still {@code running} in the ledger. */
  List<RunRecord> stillRunning() {
    return runs.stream().filter(run -> run.status() == RunStatus.RUNNING).toList();
  }

  /** The killed member's runs, as the ledger holds them at the end. */
  List<RunRecord> runsLeftByTheKilled() {
    return runs.stream()
        .filter(run -> run.process().equals(killedProcess))
        .filter(run -> !run.finished().map(killedAt::isAfter).orElse(false))
        .toList();
  }

  /**
   * Every pair of runs of one table whose times overlap, lock skips left out (a skip is a run that
   * found the lock held and did nothing). A run of the killed member ends at the kill at the
   * latest; a run without an end is taken to go on until {@code now}.
   */
  List<Overlap> overlaps(Instant now) {
    Map<String, List<RunRecord>> byTable = new LinkedHashMap<>();
    for (RunRecord run : runs) {
      if (!lockSkip(run)) {
        byTable.computeIfAbsent(run.start().table(), ignored -> new ArrayList<>()).add(run);
      }
    }
    List<Overlap> overlaps = new ArrayList<>();
    for (List<RunRecord> tableRuns : byTable.values()) {
      List<RunRecord> ordered =
          tableRuns.stream().sorted(Comparator.comparing(RunRecord::started)).toList();
      for (int index = 0; index < ordered.size(); index++) {
        Instant end = end(ordered.get(index), now);
        for (int later = index + 1; later < ordered.size(); later++) {
          if (ordered.get(later).started().isBefore(end)) {
            overlaps.add(new Overlap(ordered.get(index), ordered.get(later)));
          }
        }
      }
    }
    return overlaps;
  }

  private Instant end(RunRecord run, Instant now) {
    Instant finished = run.finished().orElse(now);
    return run.process().equals(killedProcess) && finished.isAfter(killedAt) ? killedAt : finished;
  }

  /** The run of the killed member with id {@code runId}. */
  Optional<RunRecord> run(String runId) {
    return runs.stream().filter(run -> run.runId().equals(runId)).findFirst();
  }

  private static boolean lockSkip(RunRecord run) {
    return run.status() == RunStatus.ABANDONED
        && run.error().map(error -> error.startsWith("skipped: ")).orElse(false);
  }
}
