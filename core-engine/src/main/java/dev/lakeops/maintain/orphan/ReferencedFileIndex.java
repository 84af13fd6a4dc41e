package dev.lakeops.maintain.orphan;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every location a table's metadata references, keyed by normalized path. Thread safe: manifests
 * are read in parallel into one index.
 */
final class ReferencedFileIndex {
  /** How a listed file relates to the index. */
  enum Match {
    REFERENCED,
    UNREFERENCED,
    PREFIX_MISMATCH
  }

  private final Map<String, List<FileLocation>> byPath = new ConcurrentHashMap<>();

  void add(String location) {
    if (location == null) {
      return;
    }
    FileLocation parsed = FileLocation.parse(location);
    byPath.merge(
        parsed.path(),
        List.of(parsed),
        (existing, added) -> {
          if (existing.contains(parsed)) {
            return existing;
          }
          List<FileLocation> merged = new ArrayList<>(existing);
          merged.add(parsed);
          return List.copyOf(merged);
        });
  }

  int size() {
    return byPath.size();
  }

  Match match(FileLocation listed, PrefixMatcher matcher) {
    List<FileLocation> referenced = byPath.get(listed.path());
    if (referenced == null) {
      return Match.UNREFERENCED;
    }
    for (FileLocation candidate : referenced) {
      if (matcher.sameFile(listed, candidate)) {
        return Match.REFERENCED;
      }
    }
    return Match.PREFIX_MISMATCH;
  }

  /** The referenced prefixes of {@code path}, for error messages. */
  List<String> prefixesOf(String path) {
    List<String> prefixes = new ArrayList<>();
    for (FileLocation location : byPath.getOrDefault(path, List.of())) {
      prefixes.add(location.prefix());
    }
    return prefixes;
  }
}
