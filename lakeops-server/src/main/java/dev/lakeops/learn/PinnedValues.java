package dev.lakeops.learn;

import static java.util.Objects.requireNonNull;

import dev.lakeops.policy.EffectivePolicy;
import dev.lakeops.unit.ByteSize;
import java.util.Map;
import java.util.Optional;

/**
 * What the policy pins of a compaction, which the planner never overrides: its memory share ({@code
 * compact.memory}) and Iceberg rewrite options ({@code compact.options.*}, among them {@code
 * max-concurrent-file-group-rewrites}, {@code partial-progress.enabled} and {@code
 * max-file-group-size-bytes}).
 *
 * @param memory the memory share, empty when the planner sizes it
 * @param options rewrite options by name
 */
public record PinnedValues(Optional<ByteSize> memory, Map<String, String> options) {
  /** Nothing pinned: the planner decides everything it learns. */
  public static final PinnedValues NONE = new PinnedValues(Optional.empty(), Map.of());

  public PinnedValues {
    requireNonNull(memory, "memory is null");
    options = Map.copyOf(requireNonNull(options, "options is null"));
  }

  /** The values {@code policy} pins. */
  public static PinnedValues of(EffectivePolicy policy) {
    requireNonNull(policy, "policy is null");
    return new PinnedValues(policy.compactMemory(), policy.compactOptions());
  }

  /** Only rewrite options pinned. */
  public static PinnedValues options(Map<String, String> options) {
    return new PinnedValues(Optional.empty(), options);
  }

  public boolean pins(String option) {
    return options.containsKey(option);
  }
}
