package dev.lakeops.control;

import static java.util.Objects.requireNonNull;

import dev.lakeops.ledger.JdbcLeaseTable;
import dev.lakeops.ledger.MemberRow;
import dev.lakeops.ledger.RunQuery;
import dev.lakeops.ledger.RunRecord;
import dev.lakeops.ledger.RunStatus;
import dev.lakeops.lock.TableLocks;
import java.util.List;
import java.util.function.Consumer;

/**
 * Cleans up after a member that stopped renewing its membership, as a restarted daemon does after
 * its own killed process: its {@code running} runs are marked abandoned, the files its compactions
 * wrote and did not commit are removed, and the table leases it held are freed so that its tables
 * can be maintained at once.
 */
final class DeadMemberRuns implements Consumer<MemberRow> {
  private final ServeSettings settings;
  private final DaemonLog log;

  DeadMemberRuns(ServeSettings settings, DaemonLog log) {
    this.settings = requireNonNull(settings, "settings is null");
    this.log = requireNonNull(log, "log is null");
  }

  @Override
  public void accept(MemberRow member) {
    try {
      abandonRuns(member);
    } catch (RuntimeException e) {
      log.note(
          "cannot abandon the runs of dead member "
              + member.memberId()
              + ": "
              + DaemonLog.oneLine(e));
    }
    settings
        .ledger()
        .storeLocation()
        .ifPresent(
            store -> {
              try (JdbcLeaseTable leases = JdbcLeaseTable.open(store)) {
                int released =
                    leases.releaseAllOf(
                        TableLocks.ownerPrefix("serve", member.host(), member.pid()));
                if (released > 0) {
                  log.note(
                      "released "
                          + released
                          + " table lease(s) of dead member "
                          + member.memberId());
                }
              } catch (RuntimeException e) {
                log.note(
                    "cannot release the table leases of dead member "
                        + member.memberId()
                        + ": "
                        + DaemonLog.oneLine(e)
                        + "; they end with their lease");
              }
            });
  }

  private void abandonRuns(MemberRow member) {
    List<RunRecord> running =
        settings
            .ledger()
            .list(RunQuery.all().withCatalog(settings.catalogName()).withStatus(RunStatus.RUNNING))
            .stream()
            .filter(run -> run.process().equals(member.process()))
            .toList();
    DeadRunFiles leftovers = new DeadRunFiles(settings.catalog());
    for (RunRecord run : running) {
      String removed = settings.dryRun() ? "" : leftovers.removeLeftovers(run);
      settings
          .ledger()
          .abandon(
              run.runId(),
              "member "
                  + member.memberId()
                  + " (process "
                  + member.process()
                  + ") died without finishing the run"
                  + removed);
      log.table(
          run.table(),
          run.operation()
              + " run "
              + run.runId()
              + " of dead member "
              + member.memberId()
              + " abandoned"
              + removed);
    }
  }
}
