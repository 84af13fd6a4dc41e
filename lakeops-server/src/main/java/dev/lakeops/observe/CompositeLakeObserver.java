package dev.lakeops.observe;

import java.util.List;
import java.util.function.Consumer;

/** Forwards each report to several observers; one that throws does not stop the others. */
final class CompositeLakeObserver implements LakeObserver {
  private static final System.Logger LOG = System.getLogger(CompositeLakeObserver.class.getName());

  private final List<LakeObserver> observers;

  CompositeLakeObserver(List<LakeObserver> observers) {
    this.observers = List.copyOf(observers);
  }

  @Override
  public void tableEvaluated(TableSample sample) {
    each(observer -> observer.tableEvaluated(sample));
  }

  @Override
  public void tableRemoved(String table) {
    each(observer -> observer.tableRemoved(table));
  }

  @Override
  public void queueChanged(List<QueuedOperation> queue) {
    each(observer -> observer.queueChanged(queue));
  }

  @Override
  public void budgetChanged(BudgetUse budget) {
    each(observer -> observer.budgetChanged(budget));
  }

  @Override
  public void runStarted(RunSummary run) {
    each(observer -> observer.runStarted(run));
  }

  @Override
  public void runFinished(RunSummary run) {
    each(observer -> observer.runFinished(run));
  }

  @Override
  public void lockSkipped(String table) {
    each(observer -> observer.lockSkipped(table));
  }

  @Override
  public void membersChanged(
      String self,
      List<dev.lakeops.ledger.MemberRow> liveMembers,
      java.util.Map<String, String> owners) {
    each(observer -> observer.membersChanged(self, liveMembers, owners));
  }

  @Override
  public void suspensionsChanged(List<dev.lakeops.ledger.SuspensionRow> suspended) {
    each(observer -> observer.suspensionsChanged(suspended));
  }

  private void each(Consumer<LakeObserver> report) {
    for (LakeObserver observer : observers) {
      try {
        report.accept(observer);
      } catch (RuntimeException e) {
        LOG.log(
            System.Logger.Level.WARNING, "Observer " + observer + " failed: " + e.getMessage(), e);
      }
    }
  }
}
