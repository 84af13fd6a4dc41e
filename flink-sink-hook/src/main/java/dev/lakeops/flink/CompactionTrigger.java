package dev.lakeops.flink;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/** Decides from {@link WriteSignals} whether a compaction is due, and says why. */
final class CompactionTrigger {
  private final CompactionHookOptions options;

  CompactionTrigger(CompactionHookOptions options) {
    this.options = requireNonNull(options, "options is null");
  }

  /**
   * @param lastStart when the hook last started a compaction, if ever
   * @return the reason to compact now, or empty
   */
  Optional<String> reasonToCompact(WriteSignals signals, Instant now, Optional<Instant> lastStart) {
    if (lastStart.isPresent()
        && Duration.between(lastStart.get(), now).compareTo(options.minInterval()) < 0) {
      return Optional.empty();
    }
    int smallFiles = signals.newSmallFiles();
    if (smallFiles >= options.minNewFiles()) {
      return Optional.of(
          smallFiles
              + " small data files added since the last compaction (min "
              + options.minNewFiles()
              + ")");
    }
    long minSmallBytes =
        options.minSmallBytes().map(size -> size.bytes()).orElse(signals.targetFileSizeBytes());
    if (smallFiles >= 2 && signals.newSmallBytes() >= minSmallBytes) {
      return Optional.of(
          smallFiles
              + " small data files of "
              + signals.newSmallBytes()
              + " bytes added since the last compaction (min "
              + minSmallBytes
              + " bytes)");
    }
    int deleteFiles = signals.newDeleteFiles();
    if (deleteFiles >= options.minDeleteFiles()) {
      return Optional.of(
          deleteFiles
              + " delete files added since the last compaction (min "
              + options.minDeleteFiles()
              + ")");
    }
    return Optional.empty();
  }
}
