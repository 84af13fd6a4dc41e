package dev.lakeops.serve.bench;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Locale;

/** The markdown report of {@link ServeBenchmark}. */
final class ServeBenchmarkReport {
  private ServeBenchmarkReport() {}

  static String markdown(
      Duration phase,
      Instant started,
      ServeBenchmark.PhaseResult serve,
      ServeBenchmark.PhaseResult cron) {
    StringBuilder text = new StringBuilder();
    text.append("# `lakeops serve` against a cron-style baseline\n\n");
    text.append("Measured ")
        .append(started.truncatedTo(ChronoUnit.MINUTES))
        .append(" on this project's 2-core machine, shared with")
        .append(
            " other builds while it ran (load averages below): treat the figures as ratios. Each phase ran ")
        .append(phase.toMinutes())
        .append(" minutes on a fresh lake.\n\n");
    text.append(
        """
        The lake: 24 tables in a PostgreSQL JDBC catalog (target file size 256 KB, so files reach it within
        minutes): 8 streaming tables (a file of 150 rows every 3 s, over 4 partitions), 6 batch-loaded tables
        (16 files in one commit every 40 s), 4 CDC tables (every 3 s a file appended or a row deleted by
        position), 3 idle healthy tables (4 files at the target size) and 3 idle fragmented ones (40 small
        files). Writers use `commit.retry.num-retries=10`.

        - **serve**: `lakeops serve` in its own JVM (`-Xmx512m`), policy `poll-interval: 5s`,
          `max-poll-interval: 30s`, `compact.min-small-files: 8` (it compacts before a partition reaches the
          12 small files that make it unhealthy), `compact.min-interval: 1m`, `max-concurrent-tables: 2`,
          `memory: 256MB`, every other key at its default.
        - **cron**: `lakeops compact` (binpack, default options) on every table, one after the other, every minute
          (in the benchmark's JVM, so without the JVM start a real cron job would pay).

        Healthy: the table's health score (built-in criteria, the same for both phases) is at least 90,
        sampled every 15 s. Write amplification: bytes written by compactions and delete-file rewrites /
        bytes committed by writers.

        """);
    text.append("| | serve | cron |\n|---|---|---|\n");
    row(text, "(table, sample) pairs healthy", percent(serve), percent(cron));
    row(text, "write amplification", amplification(serve), amplification(cron));
    row(
        text,
        "compaction runs (that committed files)",
        serve.compactionRuns() + " (" + serve.committingCompactions() + ")",
        cron.compactionRuns() + " (" + cron.committingCompactions() + ")");
    row(
        text,
        "delete-file rewrites (rewrite-position-deletes)",
        String.valueOf(serve.deleteRewrites()),
        String.valueOf(cron.deleteRewrites()));
    row(
        text,
        "other runs (expire, orphans, manifests)",
        String.valueOf(serve.otherRuns()),
        String.valueOf(cron.otherRuns()));
    row(
        text,
        "bytes written by compactions and delete-file rewrites",
        mebibytes(serve.compactionOutputBytes()),
        mebibytes(cron.compactionOutputBytes()));
    row(
        text,
        "bytes read by compactions and delete-file rewrites",
        mebibytes(serve.compactionInputBytes()),
        mebibytes(cron.compactionInputBytes()));
    row(
        text,
        "bytes committed by writers",
        mebibytes(serve.writerBytes()),
        mebibytes(cron.writerBytes()));
    row(
        text,
        "writer commits (failed)",
        serve.writerCommits() + " (" + serve.writerFailures() + ")",
        cron.writerCommits() + " (" + cron.writerFailures() + ")");
    row(
        text,
        "daemon peak RSS",
        serve.peakRssBytes() > 0 ? mebibytes(serve.peakRssBytes()) : "n/a",
        "n/a (in the benchmark JVM)");
    row(
        text,
        "unhealthy samples by table kind and worst part",
        String.valueOf(serve.unhealthyByKind()),
        String.valueOf(cron.unhealthyByKind()));
    row(text, "load average at the end (1 / 5 / 15 min)", serve.loadAverage(), cron.loadAverage());
    byKind(text, serve, cron);
    text.append(
            "\nTargets: healthy >= 95 % and at least the baseline's; write amplification at most half the baseline's;")
        .append(" peak RSS <= 1 GB.\n\n");
    text.append(
            "Reproduce: `mvn -B -q -pl benchmarks -am test -Dtest=ServeBenchmark -Dsurefire.failIfNoSpecifiedTests=false")
        .append(" -Dlakeops.benchmark.serve=")
        .append(phase.toMinutes())
        .append("m` (needs the local PostgreSQL).\n");
    return text.toString();
  }

  /** Healthy share and write amplification per table kind. */
  private static void byKind(
      StringBuilder text, ServeBenchmark.PhaseResult serve, ServeBenchmark.PhaseResult cron) {
    text.append(
        "\nBy table kind (write amplification: bytes rewritten for the kind's tables / bytes their"
            + " writers committed; idle tables get no writes):\n\n");
    text.append(
        "| table kind | serve healthy | serve write amplification | cron healthy | cron write"
            + " amplification |\n|---|---|---|---|---|\n");
    for (String kind : java.util.List.of("streaming", "batch", "cdc", "idle")) {
      ServeBenchmark.KindFigures served = serve.byKind().get(kind);
      ServeBenchmark.KindFigures baseline = cron.byKind().get(kind);
      if (served == null || baseline == null) {
        continue;
      }
      text.append("| ")
          .append(kind)
          .append(" | ")
          .append(percent(served))
          .append(" | ")
          .append(amplification(served))
          .append(" | ")
          .append(percent(baseline))
          .append(" | ")
          .append(amplification(baseline))
          .append(" |\n");
    }
  }

  private static String percent(ServeBenchmark.KindFigures kind) {
    return String.format(
        Locale.ROOT,
        "%.1f %% (%d of %d)",
        kind.healthyShare() * 100,
        kind.healthySamples(),
        kind.samples());
  }

  private static String amplification(ServeBenchmark.KindFigures kind) {
    return kind.writerBytes() == 0
        ? "n/a (" + mebibytes(kind.rewrittenBytes()) + " written)"
        : String.format(Locale.ROOT, "%.2f", kind.writeAmplification());
  }

  private static void row(StringBuilder text, String name, String serve, String cron) {
    text.append("| ")
        .append(name)
        .append(" | ")
        .append(serve)
        .append(" | ")
        .append(cron)
        .append(" |\n");
  }

  private static String percent(ServeBenchmark.PhaseResult phase) {
    return String.format(
        Locale.ROOT,
        "%.1f %% (%d of %d)",
        phase.healthyShare() * 100,
        phase.healthySamples(),
        phase.samples());
  }

  private static String amplification(ServeBenchmark.PhaseResult phase) {
    return String.format(Locale.ROOT, "%.2f", phase.writeAmplification());
  }

  private static String mebibytes(long bytes) {
    return String.format(Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024.0));
  }
}
