package dev.lakeops.cli;

import dev.lakeops.compact.CompactionListener;
import dev.lakeops.plan.RewritePlan;
import dev.lakeops.rewrite.RewrittenGroup;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/** Draws a progress bar on standard error, in megabytes of input rewritten. */
final class ProgressBarListener implements CompactionListener, AutoCloseable {
  private ProgressBar bar;

  @Override
  public synchronized void planned(RewritePlan plan) {
    if (plan.isEmpty()) {
      return;
    }
    bar =
        new ProgressBarBuilder()
            .setTaskName("Compacting")
            .setInitialMax(Math.max(1, plan.inputBytes() / (1024 * 1024)))
            .setUnit(" MB", 1)
            .setStyle(ProgressBarStyle.ASCII)
            .setConsumer(new me.tongfei.progressbar.ConsoleProgressBarConsumer(System.err))
            .build();
  }

  @Override
  public synchronized void groupRewritten(RewrittenGroup group) {
    if (bar != null) {
      bar.stepBy(group.group().inputBytes() / (1024 * 1024));
    }
  }

  @Override
  public synchronized void close() {
    if (bar != null) {
      bar.stepTo(bar.getMax());
      bar.close();
      bar = null;
    }
  }
}
