package dev.lakeops.maintain.orphan;

import static java.util.Objects.requireNonNull;

import dev.lakeops.maintain.files.ListedFile;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The sweep phase: walks a listing once, keeping only files that are older than the cutoff and not
 * in the index. Files newer than the cutoff are never candidates, whatever else is true of them.
 */
final class OrphanSweeper {
  private final ReferencedFileIndex index;
  private final PrefixMatcher matcher;
  private final PrefixMismatchMode mode;
  private final Instant cutoff;

  OrphanSweeper(
      ReferencedFileIndex index, PrefixMatcher matcher, PrefixMismatchMode mode, Instant cutoff) {
    this.index = requireNonNull(index, "index is null");
    this.matcher = requireNonNull(matcher, "matcher is null");
    this.mode = requireNonNull(mode, "mode is null");
    this.cutoff = requireNonNull(cutoff, "cutoff is null");
  }

  OrphanPlan sweep(Stream<ListedFile> listing) {
    long listed = 0;
    long tooNew = 0;
    List<String> orphans = new ArrayList<>();
    List<String> mismatches = new ArrayList<>();
    Iterator<ListedFile> files = listing.iterator();
    while (files.hasNext()) {
      ListedFile file = files.next();
      listed++;
      ReferencedFileIndex.Match match = index.match(FileLocation.parse(file.location()), matcher);
      if (match == ReferencedFileIndex.Match.REFERENCED) {
        continue;
      }
      if (!file.lastModified().isBefore(cutoff)) {
        tooNew++;
        continue;
      }
      if (match == ReferencedFileIndex.Match.UNREFERENCED) {
        orphans.add(file.location());
      } else {
        mismatches.add(file.location());
        if (mode == PrefixMismatchMode.DELETE) {
          orphans.add(file.location());
        }
      }
    }
    return new OrphanPlan(listed, tooNew, orphans, mismatches);
  }

  /** Drops candidates that became referenced since the sweep (the index grew meanwhile). */
  OrphanPlan recheck(OrphanPlan plan) {
    List<String> orphans = new ArrayList<>();
    for (String location : plan.orphans()) {
      ReferencedFileIndex.Match match = index.match(FileLocation.parse(location), matcher);
      if (match == ReferencedFileIndex.Match.UNREFERENCED
          || (match == ReferencedFileIndex.Match.PREFIX_MISMATCH
              && mode == PrefixMismatchMode.DELETE)) {
        orphans.add(location);
      }
    }
    return new OrphanPlan(plan.listedFiles(), plan.tooNewFiles(), orphans, plan.mismatches());
  }
}
