package dev.lakeops.control;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;

/**
 * One run of an external program: standard output and error go to files (so a talkative program can
 * never block on a full pipe), standard input is empty, and a run past its timeout is killed with
 * everything it started.
 */
final class ChildProcess {
  /** How long a killed program gets to exit before it is killed forcibly. */
  private static final Duration KILL_GRACE = Duration.ofSeconds(10);

  /**
   * How a run ended.
   *
   * @param exitCode the exit code; empty when the run was killed at its timeout
   * @param output standard output's file
   * @param errors standard error's file
   */
  record Ended(OptionalInt exitCode, Path output, Path errors) {
    Ended {
      requireNonNull(exitCode, "exitCode is null");
      requireNonNull(output, "output is null");
      requireNonNull(errors, "errors is null");
    }

    List<String> outputLines() {
      return lines(output);
    }

    List<String> errorLines() {
      return lines(errors);
    }

    /** Removes both files. */
    void deleteFiles() {
      try {
        Files.deleteIfExists(output);
        Files.deleteIfExists(errors);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    private static List<String> lines(Path file) {
      try {
        return Files.readAllLines(file, StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  private ChildProcess() {}

  /**
   * Runs {@code arguments}, writing its output to {@code <filePrefix>.out} and {@code .err}.
   *
   * @throws IOException when the program cannot be started (not found, not executable)
   * @throws InterruptedException when this thread is interrupted; the program is killed first
   */
  static Ended run(List<String> arguments, Path filePrefix, Duration timeout)
      throws IOException, InterruptedException {
    Path output = filePrefix.resolveSibling(filePrefix.getFileName() + ".out");
    Path errors = filePrefix.resolveSibling(filePrefix.getFileName() + ".err");
    Process process =
        new ProcessBuilder(arguments)
            .redirectOutput(output.toFile())
            .redirectError(errors.toFile())
            .start();
    try {
      process.getOutputStream().close();
      if (process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        return new Ended(OptionalInt.of(process.exitValue()), output, errors);
      }
      kill(process);
      return new Ended(OptionalInt.empty(), output, errors);
    } catch (InterruptedException | IOException e) {
      kill(process);
      throw e;
    }
  }

  private static void kill(Process process) {
    List<ProcessHandle> descendants = process.descendants().toList();
    process.destroy();
    descendants.forEach(ProcessHandle::destroy);
    try {
      if (!process.waitFor(KILL_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    descendants.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
  }
}
