package dev.lakeops.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Headless Chromium (Debian package {@code chromium}) driven from its command line: load a page,
 * let its scripts run for a virtual 10 s, then dump the DOM or take a screenshot.
 */
public final class HeadlessChromium {
  private static final List<String> NAMES =
      List.of("chromium", "chromium-browser", "google-chrome");
  private static final long TIMEOUT_SECONDS = 90;

  private final Path executable;
  private final Path profile;

  private HeadlessChromium(Path executable, Path profile) {
    this.executable = executable;
    this.profile = profile;
  }

  /**
   * The browser on the PATH (or {@code -Dlakeops.chromium=PATH}). Without one the test is skipped
   * with a message, except in CI ({@code CI=true}), where it fails: CI installs it.
   */
  public static HeadlessChromium find(Path profile) {
    Optional<Path> found = locate();
    if (found.isEmpty()) {
      String message =
          "headless Chromium not found on the PATH: apt-get install -y chromium (or -Dlakeops.chromium=PATH)";
      if ("true".equalsIgnoreCase(System.getenv("CI"))) {
        throw new AssertionError(message + "; .ci/run installs it, CI must run the browser test");
      }
      Assumptions.abort(message);
    }
    return new HeadlessChromium(found.get(), profile);
  }

  private static Optional<Path> locate() {
    String configured = System.getProperty("lakeops.chromium");
    if (configured != null && !configured.isBlank()) {
      return Optional.of(Path.of(configured));
    }
    for (String directory :
        System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
      for (String name : NAMES) {
        Path candidate = Path.of(directory, name);
        if (Files.isExecutable(candidate)) {
          return Optional.of(candidate);
        }
      }
    }
    return Optional.empty();
  }

  /** The DOM after the page's scripts ran. */
  public String dumpDom(String url) throws IOException, InterruptedException {
    return run(List.of("--dump-dom", url));
  }

  /** A PNG screenshot of the page at {@code width} x {@code height}. */
  public void screenshot(String url, Path png, int width, int height)
      throws IOException, InterruptedException {
    run(
        List.of(
            "--hide-scrollbars",
            "--window-size=" + width + "," + height,
            "--screenshot=" + png.toAbsolutePath(),
            url));
    assertThat(png).isNotEmptyFile();
  }

  private String run(List<String> arguments) throws IOException, InterruptedException {
    List<String> command =
        new ArrayList<>(
            List.of(
                executable.toString(),
                "--headless",
                "--disable-gpu",
                "--no-sandbox",
                "--no-first-run",
                "--disable-dev-shm-usage",
                "--user-data-dir=" + profile.toAbsolutePath(),
                "--virtual-time-budget=10000"));
    command.addAll(arguments);
    Path output = Files.createTempFile(profile.getParent(), "chromium", ".out");
    Process process =
        new ProcessBuilder(command)
            .redirectOutput(output.toFile())
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError(
          "Chromium did not finish within " + TIMEOUT_SECONDS + " s: " + command);
    }
    assertThat(process.exitValue()).as("chromium exit code for " + command).isZero();
    return Files.readString(output, StandardCharsets.UTF_8);
  }
}
