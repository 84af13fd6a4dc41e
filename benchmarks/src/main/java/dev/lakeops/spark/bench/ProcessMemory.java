package dev.lakeops.spark.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Peak resident set size of this JVM, from Linux's {@code /proc/self/status}. */
final class ProcessMemory {
  private static final Path STATUS = Path.of("/proc/self/status");
  private static final Path CLEAR_REFS = Path.of("/proc/self/clear_refs");

  private ProcessMemory() {}

  /** {@code VmHWM} in bytes, or -1 where /proc is not available. */
  static long peakResidentBytes() {
    return statusBytes("VmHWM:");
  }

  static long residentBytes() {
    return statusBytes("VmRSS:");
  }

  /**
   * Resets {@code VmHWM} to the current RSS (Linux 4.0+, writing 5 to clear_refs), so the next
   * reading is the peak of one phase. Returns false where that is not possible.
   */
  static boolean resetPeak() {
    try {
      Files.writeString(CLEAR_REFS, "5");
      return true;
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return false;
    }
  }

  /** The 1, 5 and 15 minute load averages of the machine, from {@code /proc/loadavg}. */
  static String loadAverage() {
    try {
      String[] parts = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return parts[0] + " / " + parts[1] + " / " + parts[2];
    } catch (IOException | ArrayIndexOutOfBoundsException e) {
      return "n/a";
    }
  }

  private static long statusBytes(String field) {
    try {
      List<String> lines = Files.readAllLines(STATUS, StandardCharsets.UTF_8);
      for (String line : lines) {
        if (line.startsWith(field)) {
          String[] parts = line.substring(field.length()).trim().split("\\s+");
          return Long.parseLong(parts[0]) * 1024;
        }
      }
    } catch (IOException | NumberFormatException e) {
      return -1;
    }
    return -1;
  }
}
