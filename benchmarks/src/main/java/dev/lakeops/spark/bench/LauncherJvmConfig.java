package dev.lakeops.spark.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The JVM options LakeOps' launchers start their JVM with ({@code bin/jvm.config}: one option per
 * line, {@code #} comments), so the benchmark's LakeOps phase runs as {@code bin/lakeops} would.
 */
final class LauncherJvmConfig {
  /**
   * The glibc malloc settings {@code bin/lakeops} exports unless its caller set them: two arenas,
   * up to 256 MB kept in them rather than trimmed, blocks mapped on their own only over 32 MB.
   */
  static final Map<String, String> MALLOC_ENVIRONMENT =
      Map.of(
          "MALLOC_ARENA_MAX", "2",
          "MALLOC_TRIM_THRESHOLD_", "268435456",
          "MALLOC_MMAP_THRESHOLD_", "33554432");

  /**
   * The collector {@code bin/lakeops compact} adds unless its caller chose one: the parallel
   * collector with fixed generations, 256 MB of heap to start.
   */
  static final List<String> COMPACTION_COLLECTOR =
      List.of("-XX:+UseParallelGC", "-XX:-UseAdaptiveSizePolicy", "-Xms256m");

  /**
   * The huge-page option {@code bin/lakeops compact} adds where the kernel hands out transparent
   * huge pages on request.
   */
  static final String TRANSPARENT_HUGE_PAGES = "-XX:+UseTransparentHugePages";

  /** The glibc tunable {@code bin/lakeops compact} exports there: malloc's arenas in huge pages. */
  static final Map<String, String> HUGE_PAGE_ENVIRONMENT =
      Map.of("GLIBC_TUNABLES", "glibc.malloc.hugetlb=1");

  private static final Path TRANSPARENT_HUGE_PAGE_MODE =
      Path.of("/sys/kernel/mm/transparent_hugepage/enabled");

  private static final Path RELATIVE_PATH = Path.of("bin", "jvm.config");

  private LauncherJvmConfig() {}

  /**
   * The options of the {@code bin/jvm.config} found in the working directory or one of its parents.
   */
  static List<String> options() {
    Path directory = repositoryRoot();
    try {
      return Files.readAllLines(directory.resolve(RELATIVE_PATH), StandardCharsets.UTF_8).stream()
          .map(String::trim)
          .filter(line -> !line.isEmpty() && !line.startsWith("#"))
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + directory.resolve(RELATIVE_PATH), e);
    }
  }

  /**
   * The options {@code bin/lakeops compact} starts its JVM with: {@link #options()}, the collector.
   */
  static List<String> compactionOptions() {
    List<String> options = new ArrayList<>(options());
    options.addAll(COMPACTION_COLLECTOR);
    if (kernelOffersHugePages()) {
      options.add(TRANSPARENT_HUGE_PAGES);
    }
    return List.copyOf(options);
  }

  /**
   * The environment {@code bin/lakeops compact} runs its JVM in: {@link #MALLOC_ENVIRONMENT}, and
   * {@link #HUGE_PAGE_ENVIRONMENT} where the kernel offers huge pages.
   */
  static Map<String, String> compactionEnvironment() {
    Map<String, String> environment = new HashMap<>(MALLOC_ENVIRONMENT);
    if (kernelOffersHugePages()) {
      environment.putAll(HUGE_PAGE_ENVIRONMENT);
    }
    return Map.copyOf(environment);
  }

  /**
   * Whether the kernel hands out transparent huge pages to a process that asks ({@code [madvise]})
   * or to every process ({@code [always]}), as the launcher checks.
   */
  static boolean kernelOffersHugePages() {
    try {
      String mode = Files.readString(TRANSPARENT_HUGE_PAGE_MODE, StandardCharsets.US_ASCII);
      return mode.contains("[always]") || mode.contains("[madvise]");
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * The repository: the working directory or the parent of it that holds {@code bin/jvm.config}.
   */
  static Path repositoryRoot() {
    Path directory = Path.of("").toAbsolutePath();
    while (directory != null && !Files.isRegularFile(directory.resolve(RELATIVE_PATH))) {
      directory = directory.getParent();
    }
    if (directory == null) {
      throw new IllegalStateException(
          "Cannot find "
              + RELATIVE_PATH
              + " in "
              + Path.of("").toAbsolutePath()
              + " or its parents: run the benchmark from the repository");
    }
    return directory;
  }
}
