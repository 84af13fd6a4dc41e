package dev.lakeops.distribute;

/**
 * Runs a {@link GroupTask} on some worker (retrying failed attempts as the host's scheduler does)
 * and returns the result of the attempt that succeeded. Called from several driver threads at once,
 * one group per call; an interrupted call cancels its task.
 */
@FunctionalInterface
public interface GroupTaskSubmitter {
  /**
   * @throws RuntimeException when every attempt failed; the message names the group
   */
  GroupTaskResult submit(GroupTask task);
}
