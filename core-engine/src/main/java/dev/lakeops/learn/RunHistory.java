package dev.lakeops.learn;

import java.util.List;

/** Where the planner reads a table's finished compactions from. */
@FunctionalInterface
public interface RunHistory {
  /** The table's most recent succeeded compactions the planner sized, newest first. */
  List<RunObservation> compactions(String table, int limit);
}
