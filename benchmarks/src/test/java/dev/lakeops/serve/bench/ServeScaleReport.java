package dev.lakeops.serve.bench;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** The Markdown of docs/benchmarks/serve-5000-tables.md, from the scale benchmark's figures. */
final class ServeScaleReport {
  private ServeScaleReport() {}

  /** One evaluation cycle as serve logged it. */
  record Cycle(int number, int tables, long evaluations, double seconds, long manifestReads) {}

  /** What the benchmark measured; filled in as it goes. */
  static final class Figures {
    final int size;
    final Duration duration;
    final String loadAtStart;
    final Instant started = Instant.now();
    final List<Cycle> cycles = new ArrayList<>();
    final List<double[]> healthSamples = new ArrayList<>();
    final Map<String, List<Double>> latencies = new TreeMap<>();
    Duration creation = Duration.ZERO;
    long peakRssBytes;
    long finalRssBytes;
    Double fragmentedHealthyAfterSeconds;
    long activeSamples;
    long activeHealthySamples;
    int tableSeries;
    int writerCommits;
    int writerFailures;
    int compactions;
    String loadAtEnd = "n/a";

    Figures(int size, Duration duration, String loadAtStart) {
      this.size = size;
      this.duration = duration;
      this.loadAtStart = loadAtStart;
    }
  }

  static String markdown(Figures f) {
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "# `lakeops serve` at %,d tables%n%n"
                + "Measured %s at commit `%s` on %d processors shared with other work (load average"
                + " 1/5/15 min: %s at the start, %s at the end). One serve process in its own JVM"
                + " (`%s`, evaluation-threads 4, max-concurrent-tables 4), a PostgreSQL JDBC"
                + " catalog on the same machine, a SQLite store, for %s.%n%n",
            f.size,
            LocalDate.ofInstant(f.started, ZoneOffset.UTC),
            MachineReadings.commit(),
            Runtime.getRuntime().availableProcessors(),
            f.loadAtStart,
            f.loadAtEnd,
            ServeScaleBenchmark.HEAP,
            human(f.duration)));
    out.append(
        String.format(
            Locale.ROOT,
            "The lake: %,d unpartitioned tables, target file size 256 KB; %d written"
                + " continuously (a small file every 3 s each), %,d idle and fragmented (16 small"
                + " files in one commit, due for compaction), the rest idle with 3 small files"
                + " (and one idle table holding the template files the others' files are byte"
                + " copies of). Created in %s by 8 threads. Policy:%n%n```yaml%n%s```%n%n",
            f.size,
            ScaleLake.ACTIVE,
            fragmented(f.size),
            human(f.creation),
            ServeScaleBenchmark.POLICY));
    out.append("| figure | value |\n|---|---|\n");
    row(out, "peak RSS (VmHWM)", mib(f.peakRssBytes));
    row(out, "RSS at the end (VmRSS)", mib(f.finalRssBytes));
    Cycle first = f.cycles.isEmpty() ? null : f.cycles.get(0);
    row(
        out,
        "first full evaluation (cycle 1)",
        first == null
            ? "not finished"
            : String.format(
                Locale.ROOT,
                "%,d tables in %.1f s (%.1f ms a table), %,d manifests read",
                first.tables(),
                first.seconds(),
                1000 * first.seconds() / Math.max(1, first.tables()),
                first.manifestReads()));
    row(
        out,
        "fragmented tables all healthy (>= 90) after",
        f.fragmentedHealthyAfterSeconds == null
            ? "not within the run"
            : String.format(
                Locale.ROOT, "%.0f s after serve started", f.fragmentedHealthyAfterSeconds));
    row(
        out,
        "active tables healthy (samples of serve's last evaluation)",
        String.format(
            Locale.ROOT,
            "%.1f%% of %,d",
            f.activeSamples == 0 ? 0 : 100.0 * f.activeHealthySamples / f.activeSamples,
            f.activeSamples));
    double[] last =
        f.healthSamples.isEmpty() ? null : f.healthSamples.get(f.healthSamples.size() - 1);
    row(
        out,
        "healthy share at the end (lakeops_tables, lakeops_tables_unhealthy)",
        last == null || last[1] == 0
            ? "n/a"
            : String.format(
                Locale.ROOT,
                "%.1f%% of %,.0f tables",
                100.0 * (last[1] - last[2]) / last[1],
                last[1]));
    row(out, "per-table metric series (lakeops_table_health_score)", String.valueOf(f.tableSeries));
    row(out, "compactions succeeded", String.valueOf(f.compactions));
    row(out, "writer commits (failed)", f.writerCommits + " (" + f.writerFailures + ")");
    out.append("\n## Evaluation cycles\n\n");
    out.append(
        "A cycle ends once every table was evaluated since it began (serve's log line `evaluation"
            + " cycle N`). Later cycles read only the manifests of tables whose snapshot changed.\n\n");
    out.append(
        "| cycle | tables | evaluations | seconds | manifests read |\n|---|---|---|---|---|\n");
    for (Cycle cycle : f.cycles) {
      out.append(
          String.format(
              Locale.ROOT,
              "| %d | %,d | %,d | %.1f | %,d |%n",
              cycle.number(),
              cycle.tables(),
              cycle.evaluations(),
              cycle.seconds(),
              cycle.manifestReads()));
    }
    out.append("\n## API latency\n\nEach endpoint requested every 15 s during the run.\n\n");
    out.append("| endpoint | requests | p50 ms | p95 ms | max ms |\n|---|---|---|---|---|\n");
    f.latencies.forEach(
        (endpoint, values) -> {
          List<Double> sorted = values.stream().sorted().toList();
          out.append(
              String.format(
                  Locale.ROOT,
                  "| `%s` | %d | %.0f | %.0f | %.0f |%n",
                  endpoint,
                  sorted.size(),
                  percentile(sorted, 0.50),
                  percentile(sorted, 0.95),
                  sorted.get(sorted.size() - 1)));
        });
    out.append(
        "\n## Health over the run\n\n| seconds after start | tables evaluated | unhealthy |\n|---|---|---|\n");
    for (int index = 0; index < f.healthSamples.size(); index += 4) {
      double[] sample = f.healthSamples.get(index);
      out.append(
          String.format(
              Locale.ROOT, "| %.0f | %,.0f | %,.0f |%n", sample[0], sample[1], sample[2]));
    }
    out.append(
        String.format(
            Locale.ROOT,
            "%nReproduce: `mvn -B -q -pl benchmarks -am test -Dtest=ServeScaleBenchmark"
                + " -Dsurefire.failIfNoSpecifiedTests=false -Dlakeops.benchmark.scale=%d"
                + " -Dlakeops.benchmark.scale.duration=%s`%n",
            f.size,
            human(f.duration)));
    return out.toString();
  }

  static int fragmented(int size) {
    int count = 0;
    for (int index = ScaleLake.ACTIVE; index < size; index++) {
      count += index % 10 == 0 ? 1 : 0;
    }
    return count;
  }

  private static void row(StringBuilder out, String name, String value) {
    out.append("| ").append(name).append(" | ").append(value).append(" |\n");
  }

  private static double percentile(List<Double> sorted, double share) {
    int index = (int) Math.ceil(share * sorted.size()) - 1;
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
  }

  private static String mib(long bytes) {
    return String.format(Locale.ROOT, "%.0f MiB", bytes / 1048576.0);
  }

  private static String human(Duration duration) {
    long seconds = duration.toSeconds();
    return seconds % 60 == 0 ? seconds / 60 + "m" : seconds + "s";
  }
}
