package dev.lakeops.cli;

import dev.lakeops.text.EditDistance;
import java.io.PrintWriter;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Prints a command line picocli could not parse as at most three lines: the error, the nearest
 * command or option when one is close, and where the help is. Never the whole usage text.
 */
final class ArgumentErrors implements CommandLine.IParameterExceptionHandler {
  /** Edits at most this far from a name make it a suggestion. */
  private static final int MAXIMUM_EDITS = 3;

  @Override
  public int handleParseException(ParameterException exception, String[] args) {
    CommandLine line = exception.getCommandLine();
    PrintWriter err = line.getErr();
    err.println("lakeops: error: " + exception.getMessage().lines().findFirst().orElse(""));
    if (exception instanceof UnmatchedArgumentException unmatched) {
      nearest(unmatched).ifPresent(name -> err.println("Did you mean: " + name + "?"));
    }
    err.println("Try '" + line.getCommandSpec().qualifiedName() + " --help'.");
    return line.getCommandSpec().exitCodeOnInvalidInput();
  }

  /** The suggestion nearest to the first unmatched argument, within {@link #MAXIMUM_EDITS}. */
  private static Optional<String> nearest(UnmatchedArgumentException exception) {
    List<String> unmatched = exception.getUnmatched();
    if (unmatched.isEmpty()) {
      return Optional.empty();
    }
    String typed = unmatched.get(0);
    String bare = typed.contains("=") ? typed.substring(0, typed.indexOf('=')) : typed;
    CommandLine line = exception.getCommandLine();
    List<String> names =
        bare.startsWith("-")
            ? line.getCommandSpec().optionsMap().keySet().stream().toList()
            : line.getSubcommands().keySet().stream().toList();
    return names.stream()
        .filter(name -> EditDistance.between(bare, name) <= MAXIMUM_EDITS)
        .min(Comparator.comparingInt(name -> EditDistance.between(bare, name)))
        .map(
            name ->
                bare.startsWith("-") ? name : line.getCommandSpec().qualifiedName() + " " + name);
  }
}
