package dev.lakeops.spark.bench;

import static java.util.Objects.requireNonNull;

import dev.lakeops.spark.bench.SideBySideBenchmark.TableState;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * One engine's compaction of its copy in the object-storage benchmark, at one latency.
 *
 * @param timed what the benchmark compares: Spark's {@code CALL} alone, LakeOps' whole process
 * @param process the whole process, JVM start to exit
 * @param sessionStart Spark's session start before the {@code CALL} (zero for LakeOps)
 * @param processCpu user and system CPU time of the whole process
 * @param timedCpu CPU time of what {@code timed} covers (Spark: its JVM during the {@code CALL})
 * @param engineFigures what the engine itself reported: Spark's result row, LakeOps' JSON fields
 */
record ObjectStorePhase(
    String engine,
    Optional<String> failure,
    Duration timed,
    Duration process,
    Duration sessionStart,
    Duration processCpu,
    Duration timedCpu,
    long peakRssBytes,
    RequestCounts requests,
    Optional<TableState> after,
    Map<String, String> engineFigures,
    String loadAtStart) {
  ObjectStorePhase {
    requireNonNull(engine, "engine is null");
    requireNonNull(failure, "failure is null");
    requireNonNull(timed, "timed is null");
    requireNonNull(process, "process is null");
    requireNonNull(sessionStart, "sessionStart is null");
    requireNonNull(processCpu, "processCpu is null");
    requireNonNull(timedCpu, "timedCpu is null");
    requireNonNull(requests, "requests is null");
    requireNonNull(after, "after is null");
    requireNonNull(engineFigures, "engineFigures is null");
    requireNonNull(loadAtStart, "loadAtStart is null");
    engineFigures = Collections.unmodifiableMap(new LinkedHashMap<>(engineFigures));
  }

  boolean succeeded() {
    return failure.isEmpty();
  }
}
