package dev.lakeops.spark.bench;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a command as a process of its own under {@code /usr/bin/time}, timed from its start to its
 * exit, with the CPU time (user and system) and peak RSS the kernel accounted to it and its
 * children; its output and errors go to files in a folder of the caller's.
 */
final class TimedProcess {
  private static final Path TIME = Path.of("/usr/bin/time");

  private TimedProcess() {}

  static Run run(List<String> command, Path directory, Duration timeout)
      throws IOException, InterruptedException {
    if (!Files.isExecutable(TIME)) {
      throw new IllegalStateException(
          "The object-storage benchmark needs " + TIME + " for CPU time (Debian package: time)");
    }
    Files.createDirectories(directory);
    Path times = directory.resolve("time.txt");
    Path output = directory.resolve("stdout.txt");
    Path errors = directory.resolve("stderr.txt");
    List<String> timed = new ArrayList<>(List.of(TIME.toString(), "-f", "%U %S %M", "-o"));
    timed.add(times.toString());
    timed.addAll(command);
    Files.write(directory.resolve("command.txt"), command, StandardCharsets.UTF_8);
    long started = System.nanoTime();
    Process process =
        new ProcessBuilder(timed)
            .redirectOutput(output.toFile())
            .redirectError(errors.toFile())
            .start();
    boolean finished = process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS);
    Duration wall = Duration.ofNanos(System.nanoTime() - started);
    if (!finished) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly().waitFor();
      return new Run(-1, wall, Duration.ZERO, Duration.ZERO, -1, output, errors, true);
    }
    List<String> lines = Files.readAllLines(times, StandardCharsets.UTF_8);
    String[] figures =
        lines.isEmpty() ? new String[0] : lines.get(lines.size() - 1).trim().split(" ");
    boolean measured = figures.length == 3;
    return new Run(
        process.exitValue(),
        wall,
        measured ? seconds(figures[0]) : Duration.ZERO,
        measured ? seconds(figures[1]) : Duration.ZERO,
        measured ? Long.parseLong(figures[2]) * 1024 : -1,
        output,
        errors,
        false);
  }

  private static Duration seconds(String text) {
    return Duration.ofNanos(Math.round(Double.parseDouble(text) * 1e9));
  }

  /** One process's figures: exit code (-1 after a time-out), wall and CPU time, peak RSS. */
  record Run(
      int exitCode,
      Duration wall,
      Duration userCpu,
      Duration systemCpu,
      long peakRssBytes,
      Path stdout,
      Path stderr,
      boolean timedOut) {
    Run {
      requireNonNull(wall, "wall is null");
      requireNonNull(userCpu, "userCpu is null");
      requireNonNull(systemCpu, "systemCpu is null");
      requireNonNull(stdout, "stdout is null");
      requireNonNull(stderr, "stderr is null");
    }

    Duration cpu() {
      return userCpu.plus(systemCpu);
    }

    String stdoutText() throws IOException {
      return Files.readString(stdout, StandardCharsets.UTF_8);
    }

    /** Why the process failed, in one line: the last line of its errors that says something. */
    String failure() throws IOException {
      if (timedOut) {
        return "timed out after " + wall;
      }
      List<String> lines = Files.readAllLines(stderr, StandardCharsets.UTF_8);
      String last = "";
      for (String line : lines) {
        String trimmed = line.trim();
        if (!trimmed.isEmpty() && !trimmed.startsWith("at ") && !trimmed.startsWith("...")) {
          last = trimmed;
        }
      }
      return "exit code " + exitCode + (last.isEmpty() ? "" : ": " + last);
    }
  }
}
