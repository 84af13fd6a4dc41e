package dev.lakeops.deletes.equality;

import static java.util.Objects.requireNonNull;

import dev.lakeops.memory.MemoryBudget;
import dev.lakeops.unit.ByteSize;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What {@code convert-equality-deletes} is asked to do.
 *
 * @param where only equality delete files that apply to data files that may hold matching rows
 *     (same syntax as {@code compact --where}); empty means every one
 * @param memoryBudget the hard limit for the key tables and position sets
 * @param spillDirectory where the anti-join spills when the keys exceed the budget
 * @param dryRun plan only, change nothing
 */
public record ConversionOptions(
    Optional<String> where, ByteSize memoryBudget, Path spillDirectory, boolean dryRun) {
  public static final ByteSize DEFAULT_MEMORY_BUDGET = MemoryBudget.DEFAULT_LIMIT;

  public ConversionOptions {
    requireNonNull(where, "where is null");
    requireNonNull(memoryBudget, "memoryBudget is null");
    requireNonNull(spillDirectory, "spillDirectory is null");
  }

  /** Every equality delete file, the default budget, the system temp directory. */
  public static ConversionOptions defaults() {
    return new ConversionOptions(
        Optional.empty(),
        DEFAULT_MEMORY_BUDGET,
        Path.of(System.getProperty("java.io.tmpdir")),
        false);
  }

  public ConversionOptions withWhere(String value) {
    return new ConversionOptions(
        Optional.ofNullable(value).filter(text -> !text.isBlank()),
        memoryBudget,
        spillDirectory,
        dryRun);
  }

  public ConversionOptions withMemoryBudget(ByteSize value) {
    return new ConversionOptions(where, value, spillDirectory, dryRun);
  }

  public ConversionOptions withSpillDirectory(Path value) {
    return new ConversionOptions(where, memoryBudget, value, dryRun);
  }

  public ConversionOptions withDryRun(boolean value) {
    return new ConversionOptions(where, memoryBudget, spillDirectory, value);
  }
}
