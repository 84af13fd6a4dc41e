package dev.lakeops.compact;

import dev.lakeops.plan.RewritePlan;
import dev.lakeops.rewrite.RewrittenGroup;

/** Hears a compaction's progress; the CLI draws its progress bar from it. */
public interface CompactionListener {
  CompactionListener NONE = new CompactionListener() {};

  default void planned(RewritePlan plan) {}

  default void groupRewritten(RewrittenGroup group) {}
}
