package dev.lakeops.cli;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * How the command line presents one contract argument: the contract gives its flag, aliases, type
 * and default ({@link ContractOptions}); the command gives the words its help shows.
 *
 * @param flag the contract's CLI flag ({@code --memory-budget})
 * @param paramLabel the value's label in the help ({@code SIZE}); empty for a flag without value
 * @param description the help text; {@code ${DEFAULT-VALUE}} shows the contract's default
 * @param split the separator of a list given as one value ({@code ,}); empty when each value is its
 *     own flag
 */
record CliFlag(
    String flag, Optional<String> paramLabel, String description, Optional<String> split) {
  CliFlag {
    requireNonNull(flag, "flag is null");
    requireNonNull(paramLabel, "paramLabel is null");
    requireNonNull(description, "description is null");
    requireNonNull(split, "split is null");
  }

  /** A flag that takes a value labelled {@code paramLabel}. */
  static CliFlag of(String flag, String paramLabel, String description) {
    return new CliFlag(flag, Optional.of(paramLabel), description, Optional.empty());
  }

  /** A flag without value ({@code --dry-run}). */
  static CliFlag switchOf(String flag, String description) {
    return new CliFlag(flag, Optional.empty(), description, Optional.empty());
  }

  /** This flag, also taking a list as one value split at {@code separator}. */
  CliFlag splitAt(String separator) {
    return new CliFlag(flag, paramLabel, description, Optional.of(separator));
  }
}
