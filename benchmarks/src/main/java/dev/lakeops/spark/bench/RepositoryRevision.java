package dev.lakeops.spark.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The commit the benchmark ran on, for its report: short hash, marked when the tree has changes.
 */
final class RepositoryRevision {
  private RepositoryRevision() {}

  static String describe() {
    Path root = LauncherJvmConfig.repositoryRoot();
    String commit = git(root, "rev-parse", "--short=12", "HEAD");
    if (commit.isEmpty()) {
      return "unknown commit";
    }
    String changes = git(root, "status", "--porcelain", "--untracked-files=no");
    return commit + (changes.isEmpty() ? "" : " (with uncommitted changes)");
  }

  private static String git(Path directory, String... arguments) {
    String[] command = new String[arguments.length + 1];
    command[0] = "git";
    System.arraycopy(arguments, 0, command, 1, arguments.length);
    try {
      Process process =
          new ProcessBuilder(command)
              .directory(directory.toFile())
              .redirectError(ProcessBuilder.Redirect.DISCARD)
              .start();
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      return process.waitFor() == 0 ? output.trim() : "";
    } catch (IOException e) {
      return "";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "";
    }
  }
}
