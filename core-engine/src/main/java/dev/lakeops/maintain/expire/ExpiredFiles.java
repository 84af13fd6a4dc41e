package dev.lakeops.maintain.expire;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * Files that only expired snapshots reach, by kind. Every location here was checked against every
 * retained snapshot.
 */
public record ExpiredFiles(
    List<String> contentFiles, List<String> manifests, List<String> manifestLists, List<String> statisticsFiles) {
  public ExpiredFiles {
    contentFiles = List.copyOf(requireNonNull(contentFiles, "contentFiles is null"));
    manifests = List.copyOf(requireNonNull(manifests, "manifests is null"));
    manifestLists = List.copyOf(requireNonNull(manifestLists, "manifestLists is null"));
    statisticsFiles = List.copyOf(requireNonNull(statisticsFiles, "statisticsFiles is null"));
  }
}
