package dev.lakeops.serve.bench;

import dev.lakeops.health.HealthScore;
import dev.lakeops.health.TableHealthTracker;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Samples whether each table of a lake is healthy (health score >= 90, built-in criteria) every
 * {@link #INTERVAL}, from the benchmark's own reading of the tables' metadata, so that every
 * maintainer is measured by the same rule.
 */
final class HealthSampler {
  static final Duration INTERVAL = Duration.ofSeconds(15);

  private HealthSampler() {}

  /** One sampling round: when, and how many of the tables were healthy. */
  record Round(Instant at, int healthy, int tables) {}

  /**
   * Healthy and total samples, the unhealthy ones by table name prefix and worst part, healthy and
   * total samples by table kind ({@link BenchmarkLake#kind}), every round.
   */
  record Samples(
      long healthy,
      long total,
      Map<String, Map<String, Integer>> unhealthy,
      Map<String, Long> healthyByKind,
      Map<String, Long> totalByKind,
      List<Round> rounds) {
    Map<String, String> unhealthyByKind() {
      Map<String, String> byKind = new TreeMap<>();
      unhealthy.forEach((kind, parts) -> byKind.put(kind, parts.toString()));
      return byKind;
    }

    double healthyShare() {
      return total == 0 ? 0 : healthy / (double) total;
    }
  }

  /**
   * Samples {@code tables} for {@code duration}, running {@code alsoEachSecond} every second; a
   * table's kind is its name up to the first {@code _}.
   */
  static Samples sample(
      Catalog catalog, List<TableIdentifier> tables, Duration duration, Runnable alsoEachSecond)
      throws InterruptedException {
    Map<TableIdentifier, TableHealthTracker> trackers = new HashMap<>();
    Map<TableIdentifier, Table> loaded = new LinkedHashMap<>();
    for (TableIdentifier identifier : tables) {
      trackers.put(identifier, new TableHealthTracker());
      loaded.put(identifier, catalog.loadTable(identifier));
    }
    long healthy = 0;
    long total = 0;
    Map<String, Map<String, Integer>> unhealthy = new TreeMap<>();
    Map<String, Long> healthyByKind = new TreeMap<>();
    Map<String, Long> totalByKind = new TreeMap<>();
    List<Round> rounds = new ArrayList<>();
    long end = System.nanoTime() + duration.toNanos();
    long nextSample = System.nanoTime() + INTERVAL.toNanos();
    while (System.nanoTime() < end) {
      TimeUnit.SECONDS.sleep(1);
      alsoEachSecond.run();
      if (System.nanoTime() < nextSample) {
        continue;
      }
      nextSample += INTERVAL.toNanos();
      int roundHealthy = 0;
      for (TableIdentifier identifier : tables) {
        total++;
        String tableKind = BenchmarkLake.kind(identifier.toString());
        totalByKind.merge(tableKind, 1L, Long::sum);
        HealthScore score = trackers.get(identifier).evaluate(loaded.get(identifier)).score();
        if (score.healthy()) {
          healthy++;
          roundHealthy++;
          healthyByKind.merge(tableKind, 1L, Long::sum);
        } else {
          String kind = identifier.name().substring(0, identifier.name().indexOf('_'));
          unhealthy
              .computeIfAbsent(kind, ignored -> new TreeMap<>())
              .merge(score.worst().name(), 1, Integer::sum);
        }
      }
      rounds.add(new Round(Instant.now(), roundHealthy, tables.size()));
    }
    return new Samples(healthy, total, unhealthy, healthyByKind, totalByKind, List.copyOf(rounds));
  }
}
