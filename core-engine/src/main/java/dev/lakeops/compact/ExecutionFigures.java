package dev.lakeops.compact;

/**
 * What rewriting a compaction's groups used.
 *
 * @param peakMemoryBytes the budget's peak in this process; for groups run as remote tasks, the
 *     largest peak of one task
 * @param spilledBytes bytes written to spill files
 * @param spillFiles spill files written
 */
public record ExecutionFigures(long peakMemoryBytes, long spilledBytes, int spillFiles) {}
