package dev.lakeops.compact;

import static java.util.Objects.requireNonNull;

import dev.lakeops.commit.RewriteCommitManager;
import dev.lakeops.rewrite.OutputCleaner;
import dev.lakeops.rewrite.RewrittenGroup;
import dev.lakeops.verify.GroupVerificationException;
import java.util.Optional;
import org.apache.iceberg.io.FileIO;

/**
 * Verifies each rewritten group before the commit manager gets it. A group that passes is handed
 * on; one that fails has its files deleted at once and is reported as a failed rewrite with a
 * {@link GroupVerificationException}: under partial progress the other groups go on and commit,
 * without it the run fails and commits nothing. Called from the compaction's one consuming thread.
 */
final class VerifiedCommits {
  private final GroupVerifier verifier;
  private final RewriteCommitManager commits;
  private final FileIO io;
  private int failedGroups;

  VerifiedCommits(GroupVerifier verifier, RewriteCommitManager commits, FileIO io) {
    this.verifier = requireNonNull(verifier, "verifier is null");
    this.commits = requireNonNull(commits, "commits is null");
    this.io = requireNonNull(io, "io is null");
  }

  /** Hands {@code rewritten} to the commit manager if it passes verification. */
  void accept(RewrittenGroup rewritten) {
    Optional<String> failure;
    try {
      failure = verifier.check(rewritten);
    } catch (RuntimeException e) {
      // the input counts could not be read: the run fails, leaving no file of this group behind
      OutputCleaner.deleteQuietly(io, rewritten.addedFiles(), e);
      throw e;
    }
    if (failure.isEmpty()) {
      commits.accept(rewritten);
      return;
    }
    failedGroups++;
    GroupVerificationException refused = new GroupVerificationException(failure.get());
    OutputCleaner.deleteQuietly(io, rewritten.addedFiles(), refused);
    commits.rewriteFailed(rewritten.group(), refused);
  }

  /** Groups that failed verification so far. */
  int failedGroups() {
    return failedGroups;
  }
}
