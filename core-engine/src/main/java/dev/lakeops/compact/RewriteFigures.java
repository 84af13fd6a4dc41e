package dev.lakeops.compact;

import static java.util.Objects.requireNonNull;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the rewrite itself did: groups, files and bytes in and out, and how the bytes travelled.
 *
 * @param fileGroups how many file groups were planned
 * @param inputFiles data files rewritten ({@code rewritten_data_files_count})
 * @param outputFiles data files added ({@code added_data_files_count})
 * @param inputBytes bytes of the rewritten data files ({@code rewritten_bytes_count})
 * @param outputBytes bytes of the added data files
 * @param removedDeleteFiles delete files no longer referenced after the commit, dangling ones
 *     included
 * @param removedDanglingDeleteFiles of those, delete files removed by the dangling-delete cleanup
 *     after the rewrite ({@code removed_dangling_delete_files})
 * @param peakMemoryBytes the highest amount of budget memory held at once
 * @param copiedBytes input bytes that took the decode-free copy path
 * @param decodedBytes input bytes that were decoded and re-encoded
 * @param fallbackReasons why binpack groups were decoded instead of merged without decoding: reason
 *     → groups, most frequent first ({@code fallback_reasons}); empty when every group was merged
 *     without decoding, and for sort and zorder
 */
public record RewriteFigures(
    int fileGroups,
    int inputFiles,
    int outputFiles,
    long inputBytes,
    long outputBytes,
    int removedDeleteFiles,
    int removedDanglingDeleteFiles,
    long peakMemoryBytes,
    long copiedBytes,
    long decodedBytes,
    Map<String, Integer> fallbackReasons) {
  public RewriteFigures {
    fallbackReasons =
        Collections.unmodifiableMap(
            new LinkedHashMap<>(requireNonNull(fallbackReasons, "fallbackReasons is null")));
  }

  /** A plan's figures before anything ran (a dry run or an empty plan). */
  public static RewriteFigures planned(int fileGroups, int inputFiles, long inputBytes) {
    return new RewriteFigures(fileGroups, inputFiles, 0, inputBytes, 0, 0, 0, 0, 0, 0, Map.of());
  }

  /** Groups decoded instead of merged without decoding, for any reason. */
  public int fallbackGroups() {
    return fallbackReasons.values().stream().mapToInt(Integer::intValue).sum();
  }
}
