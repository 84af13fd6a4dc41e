package dev.lakeops.commit;

import static java.util.Objects.requireNonNull;

import dev.lakeops.rewrite.RewrittenGroup;

/**
 * A rewritten file group left out of the commit; its new files were deleted.
 *
 * @param group the group, with the files it had written
 * @param reason why, in words, e.g. {@code input file .../a.parquet was removed by snapshot 42
 *     (overwrite)}
 */
public record DroppedGroup(RewrittenGroup group, String reason) {
  public DroppedGroup {
    requireNonNull(group, "group is null");
    requireNonNull(reason, "reason is null");
  }

  /** {@code group 3 (day=2024-01-01): reason}, as the CLI prints it. */
  public String describe() {
    return "group " + group.group().index() + " (" + group.group().partitionPath() + "): " + reason;
  }
}
