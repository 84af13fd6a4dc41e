package dev.lakeops.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Runs {@link Main#run} and returns what it printed on stdout; fails with stderr when it fails. */
public final class CommandLineForTests {
  private CommandLineForTests() {}

  public static String run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream originalOut = System.out;
    PrintStream originalErr = System.err;
    int code;
    try {
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      code = Main.run(args);
    } finally {
      System.setOut(originalOut);
      System.setErr(originalErr);
    }
    if (code != 0) {
      throw new AssertionError(
          "lakeops "
              + String.join(" ", args)
              + " exited "
              + code
              + ": "
              + err.toString(StandardCharsets.UTF_8).trim());
    }
    return out.toString(StandardCharsets.UTF_8);
  }
}
