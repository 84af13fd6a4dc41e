package dev.lakeops.spark.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A LakeOps phase run as a user runs it: {@code bin/lakeops compact} with its defaults, timed as a
 * whole process (launcher, JVM start, catalog, compaction, exit) under {@code /usr/bin/time}, whose
 * maximum resident set size covers the launcher's JVMs. {@link CompactionPhase} runs it for the
 * engine {@code lakeops-cli} and prints the usual result line.
 */
final class LauncherPhase {
  private static final Path TIME = Path.of("/usr/bin/time");

  private LauncherPhase() {}

  /**
   * Runs {@code bin/lakeops --version} once, outside any timing, so that the launcher builds the
   * command line and records its class-data sharing archive if either is missing or stale.
   */
  static void prepare() throws IOException, InterruptedException {
    requireTime();
    Process process =
        new ProcessBuilder(launcher().toString(), "--version")
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    if (process.waitFor() != 0) {
      throw new IllegalStateException(
          launcher() + " --version failed with exit code " + process.exitValue());
    }
  }

  /** Compacts {@code db.events} in {@code warehouse} by binpack and prints the result line. */
  static void run(Path warehouse, Path spill) throws IOException, InterruptedException {
    requireTime();
    Path work = Files.createTempDirectory("lakeops-launcher-phase");
    try {
      Path timeOutput = work.resolve("time.txt");
      Path json = work.resolve("result.json");
      List<String> command = new ArrayList<>();
      command.addAll(List.of(TIME.toString(), "-f", "%M", "-o", timeOutput.toString()));
      command.addAll(
          List.of(
              launcher().toString(),
              "compact",
              SideBySideBenchmark.TABLE.toString(),
              "--warehouse",
              warehouse.toString(),
              "--target-file-size",
              (SideBySideBenchmark.TARGET_FILE_SIZE_BYTES >> 20) + "MB",
              "--spill-directory",
              spill.toString(),
              "--json"));
      long started = System.nanoTime();
      Process process =
          new ProcessBuilder(command)
              .redirectOutput(json.toFile())
              .redirectError(ProcessBuilder.Redirect.INHERIT)
              .start();
      int exit = process.waitFor();
      long wallNanos = System.nanoTime() - started;
      String output = Files.readString(json, StandardCharsets.UTF_8);
      System.out.println("[phase] lakeops-cli: " + output.trim());
      if (exit != 0) {
        throw new IllegalStateException("bin/lakeops compact failed with exit code " + exit);
      }
      JsonNode result = new ObjectMapper().readTree(output);
      List<String> time = Files.readAllLines(timeOutput, StandardCharsets.UTF_8);
      long peakRssBytes = Long.parseLong(time.get(time.size() - 1).trim()) * 1024;
      System.out.println(
          CompactionPhase.RESULT_PREFIX
              + "wall_nanos="
              + wallNanos
              + " session_nanos=0"
              + " peak_rss_bytes="
              + peakRssBytes
              + " spilled_bytes="
              + result.path("spilled_bytes").asLong()
              + " spill_files="
              + result.path("spill_files").asLong()
              + " copied_bytes="
              + result.path("copied_bytes").asLong()
              + " decoded_bytes="
              + result.path("decoded_bytes").asLong()
              + " compaction_nanos="
              + Math.round(result.path("seconds").asDouble() * 1e9));
    } finally {
      SideBySideBenchmark.deleteRecursively(work);
    }
  }

  private static Path launcher() {
    return LauncherJvmConfig.repositoryRoot().resolve("bin").resolve("lakeops");
  }

  private static void requireTime() {
    if (!Files.isExecutable(TIME)) {
      throw new IllegalStateException(
          "The launcher phase needs " + TIME + " for the peak RSS (Debian package: time)");
    }
  }
}
