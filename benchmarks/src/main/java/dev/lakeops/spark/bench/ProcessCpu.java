package dev.lakeops.spark.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * User and system CPU time of this whole JVM (all its threads), from Linux's {@code
 * /proc/self/stat} ({@code utime} and {@code stime}, in clock ticks). Read before and after a call,
 * the difference is the call's CPU time, garbage collection and JIT included.
 *
 * @param userNanos CPU time in user mode, or -1 where /proc is not available
 * @param systemNanos CPU time in the kernel on the process's behalf, or -1
 */
record ProcessCpu(long userNanos, long systemNanos) {
  private static final Path STAT = Path.of("/proc/self/stat");

  /** The kernel's clock ticks per second ({@code getconf CLK_TCK}; 100 on Linux). */
  private static final long TICKS_PER_SECOND = 100;

  private static final long NANOS_PER_TICK = 1_000_000_000L / TICKS_PER_SECOND;

  static ProcessCpu now() {
    try {
      String stat = Files.readString(STAT);
      // the fields after the command name in parentheses, which may hold spaces: state is field 3,
      // utime field 14 and stime field 15 of proc(5)
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return new ProcessCpu(
          Long.parseLong(fields[11]) * NANOS_PER_TICK, Long.parseLong(fields[12]) * NANOS_PER_TICK);
    } catch (IOException | RuntimeException e) {
      return new ProcessCpu(-1, -1);
    }
  }

  /** The CPU time from {@code earlier} to this reading; -1 fields where either reading failed. */
  ProcessCpu since(ProcessCpu earlier) {
    boolean known = userNanos >= 0 && earlier.userNanos >= 0;
    return known
        ? new ProcessCpu(userNanos - earlier.userNanos, systemNanos - earlier.systemNanos)
        : new ProcessCpu(-1, -1);
  }
}
