package dev.lakeops.operation;

import static java.util.Objects.requireNonNull;

/**
 * A deprecated spelling that keeps working on one host, so that scripts written before the contract
 * do not break: Spark's {@code memory} for {@code memory_budget}, the CLI's {@code --zorder} for
 * {@code --zorder-columns}.
 *
 * @param host where the alias is accepted
 * @param name the alias as the host spells it ({@code memory}, {@code --zorder})
 * @param type the kind of value it takes; Spark's {@code zorder_by} is one comma-separated text
 */
public record ArgumentAlias(Host host, String name, ArgumentType type) {
  public ArgumentAlias {
    requireNonNull(host, "host is null");
    requireNonNull(name, "name is null");
    requireNonNull(type, "type is null");
  }
}
