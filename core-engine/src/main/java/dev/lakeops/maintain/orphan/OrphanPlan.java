package dev.lakeops.maintain.orphan;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * The outcome of the sweep: what was listed and which files are orphans.
 *
 * @param listedFiles files listed
 * @param tooNewFiles unreferenced files newer than the cutoff
 * @param orphans unreferenced files older than the cutoff (with prefix mismatches when the mode is
 *     delete)
 * @param mismatches files whose path is referenced under another scheme or authority
 */
record OrphanPlan(
    long listedFiles, long tooNewFiles, List<String> orphans, List<String> mismatches) {
  OrphanPlan {
    orphans = List.copyOf(requireNonNull(orphans, "orphans is null"));
    mismatches = List.copyOf(requireNonNull(mismatches, "mismatches is null"));
  }
}
