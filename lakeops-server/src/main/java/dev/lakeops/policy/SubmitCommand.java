package dev.lakeops.policy;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A command line that {@code lakeops serve} starts to hand a compaction to a Spark application
 * ({@code execution.spark-submit.command}). Written as one line and split like a shell would split
 * it on spaces, honouring single and double quotes (no variables, no globbing). Placeholders:
 * {@value #TABLE} (the table as {@code namespace.table}, required), {@value #CATALOG} (the
 * catalog's name in serve) and the argument {@value #FLAGS} (the compact flags; appended when
 * absent).
 *
 * @param arguments the program and its arguments, placeholders not yet replaced
 */
public record SubmitCommand(List<String> arguments) {
  public static final String TABLE = "{table}";
  public static final String CATALOG = "{catalog}";
  public static final String FLAGS = "{flags}";

  public SubmitCommand {
    arguments = List.copyOf(requireNonNull(arguments, "arguments is null"));
    if (arguments.isEmpty()) {
      throw new IllegalArgumentException("the command is empty");
    }
    if (arguments.stream().noneMatch(argument -> argument.contains(TABLE))) {
      throw new IllegalArgumentException(
          "the command has no " + TABLE + " placeholder for the table to compact");
    }
  }

  /** Splits {@code text} into arguments; IllegalArgumentException with a one-line reason. */
  public static SubmitCommand parse(String text) {
    requireNonNull(text, "text is null");
    List<String> arguments = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    boolean inArgument = false;
    char quote = 0;
    for (int index = 0; index < text.length(); index++) {
      char next = text.charAt(index);
      if (quote != 0) {
        if (next == quote) {
          quote = 0;
        } else {
          current.append(next);
        }
      } else if (next == '\'' || next == '"') {
        quote = next;
        inArgument = true;
      } else if (Character.isWhitespace(next)) {
        if (inArgument) {
          arguments.add(current.toString());
          current.setLength(0);
          inArgument = false;
        }
      } else {
        current.append(next);
        inArgument = true;
      }
    }
    if (quote != 0) {
      throw new IllegalArgumentException("the command has an unclosed " + quote + " quote");
    }
    if (inArgument) {
      arguments.add(current.toString());
    }
    return new SubmitCommand(arguments);
  }

  /**
   * The arguments to start: placeholders replaced, {@code flags} in place of {@value #FLAGS} or
   * after the last argument.
   */
  public List<String> expand(String catalog, String table, List<String> flags) {
    Map<String, String> values = Map.of(TABLE, table, CATALOG, catalog);
    List<String> expanded = new ArrayList<>();
    boolean flagsPlaced = false;
    for (String argument : arguments) {
      if (argument.equals(FLAGS)) {
        expanded.addAll(flags);
        flagsPlaced = true;
        continue;
      }
      String replaced = argument;
      for (Map.Entry<String, String> value : values.entrySet()) {
        replaced = replaced.replace(value.getKey(), value.getValue());
      }
      expanded.add(replaced);
    }
    if (!flagsPlaced) {
      expanded.addAll(flags);
    }
    return List.copyOf(expanded);
  }

  /** The command written back as one line, quoting arguments with spaces or quotes. */
  public String text() {
    List<String> written = new ArrayList<>();
    for (String argument : arguments) {
      boolean plain = !argument.isEmpty() && argument.chars().noneMatch(SubmitCommand::special);
      written.add(
          plain ? argument : argument.contains("'") ? '"' + argument + '"' : "'" + argument + "'");
    }
    return String.join(" ", written);
  }

  private static boolean special(int character) {
    return Character.isWhitespace(character) || character == '\'' || character == '"';
  }
}
