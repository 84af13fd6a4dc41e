package dev.lakeops.spark.bench;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The command line of a Spark JVM started by the object-storage benchmark: this JVM's options and
 * class path, with a heap of its own and without the boot class path that puts the Servlet 6.0 API
 * before 5.0 for s3proxy's Jetty: Spark's Jetty needs 5.0, the one on the class path.
 */
final class SparkJvmCommand {
  private SparkJvmCommand() {}

  static List<String> of(String heap, Class<?> mainClass, String... arguments) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx" + heap);
    for (String argument : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (!argument.startsWith("-Xmx")
          && !argument.startsWith("-Xms")
          && !argument.startsWith("-Xbootclasspath")
          && !argument.startsWith("-agentlib")
          && !argument.startsWith("-Dlakeops.benchmark")) {
        command.add(argument);
      }
    }
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass.getName()));
    command.addAll(Arrays.asList(arguments));
    return command;
  }
}
