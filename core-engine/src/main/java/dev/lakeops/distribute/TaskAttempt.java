package dev.lakeops.distribute;

import static java.util.Objects.requireNonNull;

import dev.lakeops.unit.ByteSize;
import java.nio.file.Path;

/**
 * Where and with what one attempt at a {@link GroupTask} runs, decided by the worker.
 *
 * @param tag unique per attempt (e.g. {@code attempt-17} for Spark task attempt 17); part of every
 *     output file name
 * @param memoryShare the attempt's memory budget (its own Arrow root allocator)
 * @param spillDirectory a directory of the worker's local disks, for sorted runs and joins
 */
public record TaskAttempt(String tag, ByteSize memoryShare, Path spillDirectory) {
  public TaskAttempt {
    requireNonNull(tag, "tag is null");
    requireNonNull(memoryShare, "memoryShare is null");
    requireNonNull(spillDirectory, "spillDirectory is null");
  }
}
