package dev.lakeops.compact;

import static java.util.Objects.requireNonNull;

import dev.lakeops.verify.VerificationMode;

/**
 * How a compaction's rewritten groups were verified before their commit.
 *
 * @param mode the verification mode used ({@code verification}: counts, checksum or off)
 * @param verifiedRows rows of the committed groups, each of which passed verification ({@code
 *     verified_rows}); 0 with verification off
 * @param failedGroups file groups that failed verification: not committed, their files deleted
 *     ({@code verification_failures})
 */
public record VerificationFigures(VerificationMode mode, long verifiedRows, int failedGroups) {
  /** Nothing verified: a dry run, an empty plan, or verification off. */
  public static final VerificationFigures NONE =
      new VerificationFigures(VerificationMode.OFF, 0, 0);

  public VerificationFigures {
    requireNonNull(mode, "mode is null");
  }

  /** A run in {@code mode} that verified nothing yet. */
  public static VerificationFigures none(VerificationMode mode) {
    return new VerificationFigures(mode, 0, 0);
  }
}
