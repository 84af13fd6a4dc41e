package dev.lakeops.spark.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes a benchmark's Markdown report, prints it, and fails the run when its check failed. */
final class ReportFiles {
  /** The Maven command every report's "Reproduce" line starts with (the repository's root). */
  static final String MAVEN_COMMAND = "mvn -B -q -pl benchmarks -am process-classes";

  private ReportFiles() {}

  /**
   * Writes {@code markdown} to {@code reports/name}, prints it, then throws with {@code failure}
   * (naming the file) unless {@code checkPassed}.
   */
  static void publish(
      Path reports, String name, String markdown, boolean checkPassed, String failure)
      throws IOException {
    Files.createDirectories(reports);
    Path file = reports.resolve(name);
    Files.writeString(file, markdown);
    System.out.println(markdown);
    SideBySideBenchmark.log("report written to %s", file);
    if (!checkPassed) {
      throw new IllegalStateException(failure + ": see " + file);
    }
  }
}
