package dev.lakeops.cli;

import dev.lakeops.catalog.RootCause;
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
    String message = exception.getMessage();
    if (message == null || message.isBlank()) {
      return RootCause.message(exception);
    }
    return message.lines().findFirst().orElse(message);
  }
}
