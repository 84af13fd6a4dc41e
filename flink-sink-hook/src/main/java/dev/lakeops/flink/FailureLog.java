package dev.lakeops.flink;

import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs each failed check of the hook once. A failure caused by the JVM option Arrow needs (the core
 * allocates its memory with Arrow) is logged with the fix: the exact option and where a Flink job
 * puts it. Only the first such failure carries the stack trace; later ones are one line.
 */
final class FailureLog {
  /** The JVM option Arrow's memory needs on JDK 17 and later. */
  static final String ARROW_JVM_OPTION = "--add-opens=java.base/java.nio=ALL-UNNAMED";

  private static final Logger LOG = LoggerFactory.getLogger(FailureLog.class);

  private boolean jvmOptionReported;

  /** The fix for a failure caused by the missing JVM option, in one sentence. */
  static String jvmOptionFix() {
    return "start the TaskManagers' JVMs with "
        + ARROW_JVM_OPTION
        + ": on a Flink cluster add it to"
        + " env.java.opts.all in the Flink configuration file (conf/config.yaml) and restart the"
        + " cluster; for a job run in your own JVM (a local environment, a MiniCluster, an IDE) add it"
        + " to that java command";
  }

  /** Logs {@code failure}, which ended the check after checkpoint {@code checkpointId}. */
  synchronized void failed(String table, long checkpointId, Throwable failure) {
    if (!isMissingJvmOption(failure)) {
      LOG.warn(
          "Compaction check of {} after checkpoint {} failed; the job goes on writing and a"
              + " later checkpoint tries again",
          table,
          checkpointId,
          failure);
    } else if (!jvmOptionReported) {
      jvmOptionReported = true;
      LOG.warn(
          "Cannot compact {}: the JVM lacks the option Arrow needs for its memory ({}). To fix it, {}."
              + " Until then the job goes on writing and the table is not compacted",
          table,
          failure,
          jvmOptionFix(),
          failure);
    } else {
      LOG.warn(
          "Cannot compact {} after checkpoint {}: the JVM still lacks {} (see the first warning)",
          table,
          checkpointId,
          ARROW_JVM_OPTION);
    }
  }

  /**
   * Whether {@code failure} comes from Arrow's memory being unable to reach {@code java.nio}
   * without the option: Arrow's {@code MemoryUtil} fails to initialize (an {@link
   * ExceptionInInitializerError} first, {@code NoClassDefFoundError: Could not initialize class}
   * after), or Netty's direct buffers are unavailable.
   */
  static boolean isMissingJvmOption(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      String message = String.valueOf(cause.getMessage()).toLowerCase(Locale.ROOT);
      if (message.contains("--add-opens=java.base/java.nio")
          || message.contains("java.nio.directbytebuffer")
          || (cause instanceof LinkageError && message.contains("org.apache.arrow.memory"))) {
        return true;
      }
      if (cause.getCause() == cause) {
        break;
      }
    }
    return false;
  }
}
