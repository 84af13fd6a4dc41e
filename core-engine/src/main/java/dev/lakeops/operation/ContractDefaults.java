package dev.lakeops.operation;

import dev.lakeops.memory.MemoryBudget;
import dev.lakeops.unit.ByteSize;
import dev.lakeops.unit.TimeInput;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The typed defaults of the procedure contract, held once: the binders apply them, {@link
 * Operations} shows them, the core's own defaults ({@code OrphanRemovalOptions}, {@code
 * PositionDeleteRewriter}, {@code CompactionRequest}) are these values, and a host that must show a
 * default (the CLI's {@code ${DEFAULT-VALUE}}) reads it here as a user would type it. Defaults that
 * depend on the table (a retention property, the target file size) have no typed value: the core
 * reads them from the table.
 */
public final class ContractDefaults {
  /** {@code memory_budget}: what one rewrite or conversion may hold before it spills. */
  public static final ByteSize MEMORY_BUDGET = MemoryBudget.DEFAULT_LIMIT;

  /** {@code strategy} of {@code compact}, by name (the binder parses it as a given one). */
  public static final String STRATEGY = "binpack";

  /** {@code older_than} of {@code remove_orphan_files}: also the safety floor. */
  public static final Duration ORPHAN_OLDER_THAN = Duration.ofDays(3);

  /** {@code prefix_mismatch_mode} of {@code remove_orphan_files}, by name. */
  public static final String PREFIX_MISMATCH_MODE = "error";

  /** {@code equal_schemes} of {@code remove_orphan_files}. */
  public static final Map<String, String> EQUAL_SCHEMES = Map.of("s3a,s3n", "s3");

  /** {@code min_input_files} of {@code rewrite_position_deletes}. */
  public static final int MIN_INPUT_FILES = 2;

  private ContractDefaults() {}

  /**
   * The typed default of {@code argument} of {@code operation} (a {@link ByteSize}, a {@link
   * Duration}, a name, a map, an integer or a boolean); empty when the default depends on the table
   * or the host.
   */
  public static Optional<Object> typed(Operation operation, String argument) {
    String name = operation.argument(argument).name();
    return switch (name) {
      case Operations.MEMORY_BUDGET -> Optional.of(MEMORY_BUDGET);
      case "strategy" -> Optional.of(STRATEGY);
      case Operations.OLDER_THAN ->
          operation.equals(Operations.REMOVE_ORPHAN_FILES)
              ? Optional.of(ORPHAN_OLDER_THAN)
              : Optional.empty();
      case "prefix_mismatch_mode" -> Optional.of(PREFIX_MISMATCH_MODE);
      case "equal_schemes" -> Optional.of(EQUAL_SCHEMES);
      case "min_input_files" -> Optional.of(MIN_INPUT_FILES);
      case Operations.DRY_RUN, "clean_expired_metadata" -> Optional.of(false);
      default -> Optional.empty();
    };
  }

  /** The typed default of {@code argument} as a user would type it: {@code 256MB}, {@code 3d}. */
  public static Optional<String> text(Operation operation, String argument) {
    return typed(operation, argument).map(ContractDefaults::display);
  }

  /** A size as a user types it: {@code 256MB}, {@code 1GB}, {@code 64KB}, {@code 1000}. */
  static String text(ByteSize size) {
    long bytes = size.bytes();
    if (bytes > 0 && bytes % (1L << 30) == 0) {
      return bytes / (1L << 30) + "GB";
    }
    if (bytes > 0 && bytes % (1L << 20) == 0) {
      return bytes / (1L << 20) + "MB";
    }
    if (bytes > 0 && bytes % (1L << 10) == 0) {
      return bytes / (1L << 10) + "KB";
    }
    return String.valueOf(bytes);
  }

  /** A typed default as a user reads it. */
  static String display(Object value) {
    if (value instanceof ByteSize size) {
      return text(size);
    }
    if (value instanceof Duration duration) {
      return TimeInput.format(duration);
    }
    if (value instanceof Map<?, ?> map) {
      return String.join(
          ", ",
          map.entrySet().stream()
              .map(entry -> entry.getKey() + " => " + entry.getValue())
              .sorted()
              .toList());
    }
    return String.valueOf(value);
  }
}
