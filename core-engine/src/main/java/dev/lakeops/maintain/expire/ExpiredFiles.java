package dev.lakeops.maintain.expire;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;

/**
 * Files that only expired snapshots reach, by kind. Every location here was checked against every
 * retained snapshot. A deletion vector counts as a position delete file under its Puffin file.
 */
public record ExpiredFiles(
    List<String> dataFiles,
    List<String> positionDeleteFiles,
    List<String> equalityDeleteFiles,
    List<String> manifests,
    List<String> manifestLists,
    List<String> statisticsFiles) {
  public ExpiredFiles {
    dataFiles = List.copyOf(requireNonNull(dataFiles, "dataFiles is null"));
    positionDeleteFiles =
        List.copyOf(requireNonNull(positionDeleteFiles, "positionDeleteFiles is null"));
    equalityDeleteFiles =
        List.copyOf(requireNonNull(equalityDeleteFiles, "equalityDeleteFiles is null"));
    manifests = List.copyOf(requireNonNull(manifests, "manifests is null"));
    manifestLists = List.copyOf(requireNonNull(manifestLists, "manifestLists is null"));
    statisticsFiles = List.copyOf(requireNonNull(statisticsFiles, "statisticsFiles is null"));
  }

  static ExpiredFiles none() {
    return new ExpiredFiles(List.of(), List.of(), List.of(), List.of(), List.of(), List.of());
  }

  /** Data and delete files together. */
  public List<String> contentFiles() {
    List<String> all =
        new ArrayList<>(dataFiles.size() + positionDeleteFiles.size() + equalityDeleteFiles.size());
    all.addAll(dataFiles);
    all.addAll(positionDeleteFiles);
    all.addAll(equalityDeleteFiles);
    return all;
  }
}
