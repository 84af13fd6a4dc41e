package dev.lakeops.spark.bench;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lakeops.spark.bench.SideBySideBenchmark.TableState;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.catalog.Catalog;

/**
 * Runs one engine on its table copy at one latency, each in a process of its own: {@code sync}
 * first, then the latency on and the server's request counts reset, the process, the latency off,
 * and the copy read back (files, row fingerprint) without latency.
 */
final class ObjectStorePhaseRunner {
  private static final Duration TIMEOUT = Duration.ofHours(2);

  private final ObjectStoreServer server;
  private final String sparkHeap;

  ObjectStorePhaseRunner(ObjectStoreServer server, String sparkHeap) {
    this.server = requireNonNull(server, "server is null");
    this.sparkHeap = requireNonNull(sparkHeap, "sparkHeap is null");
  }

  /** Spark's {@code CALL rewrite_data_files} in a JVM of its own ({@link SparkRewritePhase}). */
  ObjectStorePhase spark(ObjectStoreCatalog catalog, Path directory, Duration latency)
      throws IOException, InterruptedException {
    Files.createDirectories(directory);
    Path properties = directory.resolve("catalog.properties");
    catalog.write(properties);
    List<String> command =
        SparkJvmCommand.of(sparkHeap, SparkRewritePhase.class, properties.toString());
    Measured measured = measure(command, directory, latency);
    TimedProcess.Run run = measured.run();
    Map<String, String> result = new LinkedHashMap<>();
    Optional<String> line =
        Files.readAllLines(run.stdout(), StandardCharsets.UTF_8).stream()
            .filter(text -> text.startsWith(SparkRewritePhase.RESULT_PREFIX))
            .findFirst();
    line.ifPresent(
        text -> {
          for (String field : text.substring(SparkRewritePhase.RESULT_PREFIX.length()).split(" ")) {
            int equals = field.indexOf('=');
            if (equals > 0) {
              result.put(field.substring(0, equals), field.substring(equals + 1));
            }
          }
        });
    Optional<String> failure =
        run.exitCode() == 0 && line.isPresent()
            ? Optional.empty()
            : Optional.of(line.isPresent() ? run.failure() : run.failure() + " (no result line)");
    Duration call = nanos(result.remove("call_nanos"));
    Duration session = nanos(result.remove("session_nanos"));
    Duration callCpu = nanos(result.remove("call_cpu_nanos"));
    return new ObjectStorePhase(
        "Spark",
        failure,
        failure.isEmpty() ? call : run.wall(),
        run.wall(),
        session,
        run.cpu(),
        callCpu,
        run.peakRssBytes(),
        measured.requests(),
        after(catalog, failure),
        result,
        measured.loadAtStart());
  }

  /** {@code bin/lakeops compact ... --json} as a user runs it, whole process. */
  ObjectStorePhase lakeops(ObjectStoreCatalog catalog, Path directory, Duration latency)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(LauncherJvmConfig.repositoryRoot().resolve("bin").resolve("lakeops").toString());
    command.add("compact");
    command.add(SideBySideBenchmark.TABLE.toString());
    command.addAll(catalog.commandLineOptions());
    command.addAll(
        List.of(
            "--target-file-size",
            (SideBySideBenchmark.TARGET_FILE_SIZE_BYTES >> 20) + "MB",
            "--spill-directory",
            directory.resolve("spill").toString(),
            "--json"));
    // more arguments for profiling runs (ObjectStoreBenchmark's lakeopsOnly), e.g. "--verify off"
    String extra = System.getProperty("lakeops.benchmark.objectstore.lakeopsArguments", "");
    if (!extra.isBlank()) {
      command.addAll(List.of(extra.strip().split("\\s+")));
    }
    Measured measured = measure(command, directory, latency);
    TimedProcess.Run run = measured.run();
    Optional<String> failure = run.exitCode() == 0 ? Optional.empty() : Optional.of(run.failure());
    Map<String, String> figures = new LinkedHashMap<>();
    if (failure.isEmpty()) {
      try {
        figures.putAll(jsonFigures(new ObjectMapper().readTree(run.stdoutText())));
      } catch (IOException e) {
        failure = Optional.of("its --json output is not JSON: " + e.getMessage());
      }
    }
    return new ObjectStorePhase(
        "LakeOps",
        failure,
        run.wall(),
        run.wall(),
        Duration.ZERO,
        run.cpu(),
        run.cpu(),
        run.peakRssBytes(),
        measured.requests(),
        after(catalog, failure),
        figures,
        measured.loadAtStart());
  }

  private Measured measure(List<String> command, Path directory, Duration latency)
      throws IOException, InterruptedException {
    DirtyPages.flush();
    String load = ProcessMemory.loadAverage();
    SideBySideBenchmark.log("starting %s (load %s), output in %s", command.get(0), load, directory);
    server.latency(latency);
    server.requests().reset();
    TimedProcess.Run run;
    try {
      run = TimedProcess.run(command, directory, TIMEOUT);
    } finally {
      server.latency(Duration.ZERO);
    }
    return new Measured(run, server.requests().snapshot(), load);
  }

  /**
   * The JSON fields the report shows: the compaction's own time and file counts, and whatever
   * request figures LakeOps reports (fields naming requests or requests in flight), if any.
   */
  private static Map<String, String> jsonFigures(JsonNode json) {
    Map<String, String> figures = new LinkedHashMap<>();
    Iterator<Map.Entry<String, JsonNode>> fields = json.fields();
    while (fields.hasNext()) {
      Map.Entry<String, JsonNode> field = fields.next();
      String name = field.getKey();
      if (name.equals("seconds")
          || name.equals("input_files")
          || name.equals("output_files")
          || name.contains("request")
          || name.contains("in_flight")) {
        JsonNode value = field.getValue();
        figures.put(name, value.isValueNode() ? value.asText() : value.toString());
      }
    }
    return figures;
  }

  /** The copy as the phase left it, unless the phase failed before it could change anything. */
  private static Optional<TableState> after(ObjectStoreCatalog catalog, Optional<String> failure) {
    Catalog connected = catalog.connect();
    try {
      return Optional.of(TableState.of(connected.loadTable(SideBySideBenchmark.TABLE)));
    } catch (RuntimeException e) {
      SideBySideBenchmark.log(
          "cannot read the table back%s: %s",
          failure.map(reason -> " after the failure").orElse(""), e);
      return Optional.empty();
    } finally {
      ObjectStoreCatalog.close(connected);
    }
  }

  private static Duration nanos(String text) {
    return text == null ? Duration.ZERO : Duration.ofNanos(Long.parseLong(text));
  }

  private record Measured(TimedProcess.Run run, RequestCounts requests, String loadAtStart) {}
}
