package dev.lakeops.spark.bench;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The command line of a Spark JVM started by the object-storage benchmark: this JVM's options and
 * class path, except the heap and the Servlet API. s3proxy (in this JVM) needs Servlet 6.0, Spark's
 * Jetty needs 5.0; Maven copies 5.0 for the Spark JVMs and names it in {@link #SERVLET_PROPERTY}.
 */
final class SparkJvmCommand {
  static final String SERVLET_PROPERTY = "lakeops.benchmark.objectstore.sparkServletApi";
  private static final String SERVLET_JAR_PREFIX = "jakarta.servlet-api-";

  private SparkJvmCommand() {}

  static List<String> of(String heap, Class<?> mainClass, String... arguments) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx" + heap);
    for (String argument : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (!argument.startsWith("-Xmx")
          && !argument.startsWith("-Xms")
          && !argument.startsWith("-agentlib")
          && !argument.startsWith("-Dlakeops.benchmark")) {
        command.add(argument);
      }
    }
    command.addAll(List.of("-cp", classPath(), mainClass.getName()));
    command.addAll(Arrays.asList(arguments));
    return command;
  }

  private static String classPath() {
    String servletApi = System.getProperty(SERVLET_PROPERTY, "");
    if (servletApi.isEmpty() || !Files.isRegularFile(Path.of(servletApi))) {
      throw new IllegalStateException(
          "Spark's Servlet API jar '"
              + servletApi
              + "' (-D"
              + SERVLET_PROPERTY
              + ") is missing: run the benchmark through Maven (benchmarks/README.md)");
    }
    return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .map(
            entry ->
                Path.of(entry).getFileName().toString().startsWith(SERVLET_JAR_PREFIX)
                    ? servletApi
                    : entry)
        .collect(Collectors.joining(File.pathSeparator));
  }
}
