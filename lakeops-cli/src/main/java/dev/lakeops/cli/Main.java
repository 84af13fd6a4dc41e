package dev.lakeops.cli;

import dev.lakeops.argument.ArgumentError;
import dev.lakeops.catalog.RootCause;
import dev.lakeops.operation.Host;
import dev.lakeops.operation.Operations;
import picocli.CommandLine;

/** The {@code lakeops} command line. Errors print one line and exit non-zero. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    NativeCrypto.installInBackground();
    KeptNativeLibrary.useKeptCopies();
    System.exit(run(args));
  }

  public static int run(String... args) {
    CommandLine commandLine = LakeOpsCommand.commandLine(args);
    commandLine.setParameterExceptionHandler(new ArgumentErrors());
    commandLine.setExecutionExceptionHandler(
        (exception, line, parseResult) -> {
          line.getErr().println("lakeops: error: " + oneLine(exception));
          if (Boolean.getBoolean("lakeops.debug")) {
            exception.printStackTrace(line.getErr());
          }
          return 1;
        });
    return commandLine.execute(args);
  }

  private static String oneLine(Exception exception) {
    String message = spelledForTheCommandLine(exception);
    if (message == null || message.isBlank()) {
      return RootCause.message(exception);
    }
    return message.lines().findFirst().orElse(message);
  }

  /**
   * The message, with the arguments an engine error names ({@link ArgumentError}) spelled as their
   * flags; the error may come wrapped in another whose message repeats its own.
   */
  private static String spelledForTheCommandLine(Throwable exception) {
    String message = exception.getMessage();
    for (Throwable cause = exception; cause != null; cause = cause.getCause()) {
      if (cause instanceof ArgumentError error && message != null) {
        return message.replace(error.getMessage(), error.messageFor(Main::flag));
      }
    }
    return message;
  }

  /** The flag of a contract argument ({@code memory_budget}: {@code --memory-budget}). */
  static String flag(String contractName) {
    return Operations.ALL.stream()
        .flatMap(operation -> operation.arguments().stream())
        .filter(argument -> argument.name().equals(contractName))
        .findFirst()
        .map(argument -> argument.spelling(Host.CLI))
        .orElse(Host.CLI.spell(contractName));
  }
}
