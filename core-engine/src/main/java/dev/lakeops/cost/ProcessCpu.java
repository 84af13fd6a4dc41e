package dev.lakeops.cost;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;

/** The CPU time the whole process has used, from the JVM's operating system bean. */
final class ProcessCpu {
  private ProcessCpu() {}

  /** CPU nanoseconds of the process so far; 0 on a JVM that cannot tell. */
  static long nanos() {
    OperatingSystemMXBean bean = ManagementFactory.getOperatingSystemMXBean();
    if (bean instanceof com.sun.management.OperatingSystemMXBean processBean) {
      return Math.max(0, processBean.getProcessCpuTime());
    }
    return 0;
  }
}
