package dev.lakeops.cli;

import dev.lakeops.compact.CompactionListener;
import dev.lakeops.plan.RewritePlan;
import dev.lakeops.rewrite.RewrittenGroup;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Draws a progress bar on standard error, in megabytes of input rewritten; for a person at a
 * terminal only ({@link #onTerminal}).
 */
final class ProgressBarListener implements CompactionListener, AutoCloseable {
  private final boolean drawn = onTerminal();
  private ProgressBar bar;

  /**
   * Whether this process talks to a terminal: a bar written into a pipe, a log file or a test's
   * captured output is only stray lines. {@code LAKEOPS_PROGRESS=on} or {@code off} overrides.
   */
  static boolean onTerminal() {
    String setting = System.getenv("LAKEOPS_PROGRESS");
    if (setting != null && !setting.isBlank()) {
      return setting.strip().equalsIgnoreCase("on");
    }
    return System.console() != null;
  }

  @Override
  public synchronized void planned(RewritePlan plan) {
    if (plan.isEmpty() || !drawn) {
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
