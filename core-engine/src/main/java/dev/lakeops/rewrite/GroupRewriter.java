package dev.lakeops.rewrite;

import dev.lakeops.plan.FileGroup;

/** Rewrites one file group into new data files without committing them. */
public interface GroupRewriter {
  /**
   * Writes the live rows of {@code group} into new files. On failure every file written so far is
   * deleted before the exception propagates.
   */
  RewrittenGroup rewrite(FileGroup group);
}
