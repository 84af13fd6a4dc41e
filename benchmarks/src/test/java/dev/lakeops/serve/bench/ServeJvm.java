package dev.lakeops.serve.bench;

import dev.lakeops.cli.Main;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code lakeops serve} in its own JVM, as {@code bin/lakeops serve} runs it: the CLI's main class
 * on the test class path, the catalog given as {@code -C} flags.
 */
final class ServeJvm {
  private ServeJvm() {}

  /**
   * Starts {@code lakeops serve options...} on catalog {@code catalogName} with {@code heap} (e.g.
   * {@code -Xmx512m}), standard output and error in {@code log}.
   */
  static Process start(
      String heap,
      String catalogName,
      Map<String, String> catalogProperties,
      Path log,
      String... options)
      throws IOException {
    return start(List.of(), heap, catalogName, catalogProperties, log, options);
  }

  /**
   * As {@link #start(String, String, Map, Path, String...)}, the command line after {@code
   * launcher} (e.g. a namespace wrapper ending in {@code exec "$@"}).
   */
  static Process start(
      List<String> launcher,
      String heap,
      String catalogName,
      Map<String, String> catalogProperties,
      Path log,
      String... options)
      throws IOException {
    List<String> command = new ArrayList<>(launcher);
    command.addAll(
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            heap,
            "--add-opens=java.base/java.nio=ALL-UNNAMED",
            "-cp",
            System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
            Main.class.getName(),
            "serve"));
    command.addAll(List.of(options));
    command.addAll(List.of("-C", "name=" + catalogName));
    catalogProperties.forEach((key, value) -> command.addAll(List.of("-C", key + "=" + value)));
    return new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .start();
  }
}
