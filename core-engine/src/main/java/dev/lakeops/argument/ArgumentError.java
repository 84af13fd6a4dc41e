package dev.lakeops.argument;

import static java.util.Objects.requireNonNull;

import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An error whose message names operation arguments. The engine writes each name as its contract
 * name in braces ({@code {memory_budget}}); {@link #getMessage()} gives the contract names, as
 * Spark and Trino spell them, and a host that spells arguments otherwise asks for {@link
 * #messageFor} with its own spelling ({@code --memory-budget} on the command line), so that every
 * user reads the names they type.
 */
public interface ArgumentError {
  /** The message, each argument spelled by {@code spelling} from its contract name. */
  String messageFor(Function<String, String> spelling);

  String getMessage();

  /** {@code template} with each {@code {name}} replaced by {@code spelling} of the name. */
  static String render(String template, Function<String, String> spelling) {
    requireNonNull(template, "template is null");
    requireNonNull(spelling, "spelling is null");
    Matcher names = Pattern.compile("\\{([a-z][a-z_]*)\\}").matcher(template);
    StringBuilder message = new StringBuilder();
    while (names.find()) {
      names.appendReplacement(message, Matcher.quoteReplacement(spelling.apply(names.group(1))));
    }
    names.appendTail(message);
    return message.toString();
  }
}
