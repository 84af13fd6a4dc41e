package dev.lakeops.serve.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** What the benchmarks read about the machine and the source tree for their reports. */
final class MachineReadings {
  private MachineReadings() {}

  /** A memory figure of {@code /proc/PID/status} ({@code VmHWM:}, {@code VmRSS:}) in bytes. */
  static long memory(long pid, String field) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
        if (line.startsWith(field)) {
          return Long.parseLong(line.substring(field.length()).trim().split("\\s+")[0]) * 1024;
        }
      }
    } catch (IOException | NumberFormatException e) {
      return 0;
    }
    return 0;
  }

  /** The peak resident memory of process {@code pid}, 0 once it is gone. */
  static long peakRss(long pid) {
    return memory(pid, "VmHWM:");
  }

  /** The 1, 5 and 15 minute load averages, {@code "1.20 / 0.90 / 0.70"}. */
  static String loadAverage() {
    try {
      String[] parts = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return parts[0] + " / " + parts[1] + " / " + parts[2];
    } catch (IOException | ArrayIndexOutOfBoundsException e) {
      return "n/a";
    }
  }

  /** The source tree's commit, {@code git rev-parse --short HEAD}. */
  static String commit() {
    try {
      Process git = new ProcessBuilder("git", "rev-parse", "--short", "HEAD").start();
      String text = new String(git.getInputStream().readAllBytes()).trim();
      return git.waitFor() == 0 && !text.isEmpty() ? text : "unknown";
    } catch (IOException | InterruptedException e) {
      return "unknown";
    }
  }
}
