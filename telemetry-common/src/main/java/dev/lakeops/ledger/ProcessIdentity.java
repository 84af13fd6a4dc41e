package dev.lakeops.ledger;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;

/** The {@code pid@machine} a ledger row names, and whether such a process is still alive. */
public final class ProcessIdentity {
  private static final String MACHINE = machineName();
  private static final String CURRENT = ProcessHandle.current().pid() + "@" + MACHINE;

  private ProcessIdentity() {}

  public static String current() {
    return CURRENT;
  }

  /**
   * Whether the process named {@code identity} is known to be gone: it ran on this machine and no
   * process with its id exists. A process on another machine is never known to be gone.
   */
  public static boolean isGone(String identity) {
    int at = identity.indexOf('@');
    if (at < 0 || !identity.substring(at + 1).equals(MACHINE)) {
      return false;
    }
    long pid;
    try {
      pid = Long.parseLong(identity.substring(0, at));
    } catch (NumberFormatException e) {
      return false;
    }
    Optional<ProcessHandle> process = ProcessHandle.of(pid);
    return process.isEmpty() || !process.get().isAlive();
  }

  private static String machineName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "unknown-host";
    }
  }
}
