package dev.lakeops.operation;

import dev.lakeops.compact.Strategy;
import dev.lakeops.deletes.PositionDeleteRewriter;
import dev.lakeops.maintain.orphan.OrphanRemovalOptions;
import dev.lakeops.maintain.orphan.PrefixMismatchMode;
import dev.lakeops.memory.MemoryBudget;
import dev.lakeops.unit.ByteSize;
import dev.lakeops.unit.TimeInput;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The typed defaults of the procedure contract, held once: the binders apply them, {@link
 * Operations} shows them, and a host that must show a default (the CLI's {@code ${DEFAULT-VALUE}})
 * reads it here as a user would type it. Defaults that depend on the table (a retention property,
 * the target file size) have no typed value: the core reads them from the table.
 */
public final class ContractDefaults {
  /** {@code memory_budget}: what one rewrite or conversion may hold before it spills. */
  public static final ByteSize MEMORY_BUDGET = MemoryBudget.DEFAULT_LIMIT;

  /** {@code strategy} of {@code compact}. */
  public static final Strategy STRATEGY = Strategy.BINPACK;

  /** {@code older_than} of {@code remove_orphan_files}: also the safety floor. */
  public static final Duration ORPHAN_OLDER_THAN = OrphanRemovalOptions.DEFAULT_OLDER_THAN;

  /** {@code prefix_mismatch_mode} of {@code remove_orphan_files}. */
  public static final PrefixMismatchMode PREFIX_MISMATCH_MODE = PrefixMismatchMode.ERROR;

  /** {@code equal_schemes} of {@code remove_orphan_files}. */
  public static final Map<String, String> EQUAL_SCHEMES =
      OrphanRemovalOptions.DEFAULT_EQUAL_SCHEMES;

  /** {@code min_input_files} of {@code rewrite_position_deletes}. */
  public static final int MIN_INPUT_FILES = PositionDeleteRewriter.MIN_INPUT_FILES_DEFAULT;

  private ContractDefaults() {}

  /**
   * The typed default of {@code argument} of {@code operation} (a {@link ByteSize}, {@link
   * Strategy}, {@link Duration}, {@link PrefixMismatchMode}, map, integer or boolean); empty when
   * the default depends on the table or the host.
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
    if (value instanceof Strategy strategy) {
      return strategy.displayName();
    }
    if (value instanceof Enum<?> constant) {
      return constant.name().toLowerCase(Locale.ROOT);
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
