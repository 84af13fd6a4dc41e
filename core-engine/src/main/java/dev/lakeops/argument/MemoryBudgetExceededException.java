package dev.lakeops.argument;

import static java.util.Objects.requireNonNull;

import java.util.function.Function;

/**
 * Work that needed more memory than the run's budget allowed it; the table is unchanged. The
 * message says which argument gives it more ({@code {memory_budget}}); see {@link ArgumentError}.
 */
public final class MemoryBudgetExceededException extends IllegalStateException
    implements ArgumentError {
  private static final long serialVersionUID = 1L;

  private final String template;

  /**
   * @param template the message, each argument named {@code {contract_name}}
   */
  public MemoryBudgetExceededException(String template, Throwable cause) {
    super(ArgumentError.render(template, Function.identity()), cause);
    this.template = requireNonNull(template, "template is null");
  }

  @Override
  public String messageFor(Function<String, String> spelling) {
    return ArgumentError.render(template, spelling);
  }
}
