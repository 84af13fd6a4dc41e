package dev.lakeops.commit;

import static java.util.Objects.requireNonNull;

import dev.lakeops.plan.FileGroup;

/**
 * A file group whose rewrite failed while partial progress let the other groups go on; it wrote
 * nothing that stays, and its input files remain in the table.
 *
 * @param group the planned group
 * @param reason the rewrite's one-line error
 */
public record FailedGroup(FileGroup group, String reason) {
  public FailedGroup {
    requireNonNull(group, "group is null");
    requireNonNull(reason, "reason is null");
  }

  /** {@code group 3 (day=2024-01-01): its rewrite failed: reason}, as the CLI prints it. */
  public String describe() {
    return "group "
        + group.index()
        + " ("
        + group.partitionPath()
        + "): its rewrite failed: "
        + reason;
  }
}
