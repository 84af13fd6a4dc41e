package dev.lakeops.argument;

import static java.util.Objects.requireNonNull;

import java.util.function.Function;

/**
 * A value an operation cannot take, found by the engine after the host read it (a budget below the
 * minimum, a partition spec the table does not have). See {@link ArgumentError} for how the message
 * names arguments.
 */
public final class InvalidArgumentException extends IllegalArgumentException
    implements ArgumentError {
  private static final long serialVersionUID = 1L;

  private final String template;

  /**
   * @param template the message, each argument named {@code {contract_name}}
   */
  public InvalidArgumentException(String template) {
    super(ArgumentError.render(template, Function.identity()));
    this.template = requireNonNull(template, "template is null");
  }

  @Override
  public String messageFor(Function<String, String> spelling) {
    return ArgumentError.render(template, spelling);
  }
}
