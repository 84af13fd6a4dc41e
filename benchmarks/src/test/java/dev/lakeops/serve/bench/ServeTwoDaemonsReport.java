package dev.lakeops.serve.bench;

import dev.lakeops.ledger.RunRecord;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The markdown report of {@link ServeTwoDaemonsBenchmark}. */
final class ServeTwoDaemonsReport {
  private ServeTwoDaemonsReport() {}

  /** What the benchmark measured, filled in as it goes. */
  static final class Figures {
    final Duration duration;
    final Duration killAfter;
    final String loadAtStart;

    /** The host name the second daemon ran under, as if on another machine; null: this one. */
    String otherHost;

    String loadAtEnd = "n/a";
    Instant started;
    Instant killedAt;
    String killed;
    String survivor;
    String killedMember;
    String killedProcess;
    String survivorProcess;
    final List<String> killedTables = new ArrayList<>();
    String killedRun;
    String backlogTable;
    String killedRunTable;
    List<Path> filesAtKill = List.of();
    List<Path> filesLeft = List.of();
    RunRecord killedRunAtEnd;
    Instant ownedAt;
    Instant evaluatedAt;
    final List<String> notEvaluated = new ArrayList<>();
    HealthSampler.Samples samples;
    int writerCommits;
    int writerFailures;
    int tablesCompared;
    long rowsAtEnd;
    long rowsCommitted;
    final List<String> rowMismatches = new ArrayList<>();
    final List<String> fingerprintMismatches = new ArrayList<>();
    long peakRssFirst;
    long peakRssSecond;
    TwoDaemonsLedger ledger;
    List<TwoDaemonsLedger.Overlap> overlaps = List.of();
    List<String> survivorLog = List.of();

    Figures(Duration duration, Duration killAfter, String loadAtStart) {
      this.duration = duration;
      this.killAfter = killAfter;
      this.loadAtStart = loadAtStart;
    }
  }

  static String markdown(Figures f) {
    StringBuilder out = new StringBuilder();
    out.append("# Two `lakeops serve` daemons on one lake, one killed halfway\n\n");
    out.append(
        String.format(
            Locale.ROOT,
            "Measured %s at commit `%s` on %d processors shared with other work (load average"
                + " 1/5/15 min: %s at the start, %s at the end).%n%n",
            f.started.truncatedTo(ChronoUnit.MINUTES),
            MachineReadings.commit(),
            Runtime.getRuntime().availableProcessors(),
            f.loadAtStart,
            f.loadAtEnd));
    out.append(
        String.format(
            Locale.ROOT,
            """
            Two `lakeops serve` processes, each in its own JVM (`%s`), share one PostgreSQL store
            (`--store jdbc:postgresql://...`, the default member lease of 60 s) and one lake in a
            PostgreSQL JDBC catalog, with the lake, the writers and the policy of
            [serve-vs-cron.md](serve-vs-cron.md): 24 tables (8 streaming, 6 batch-loaded, 4 CDC
            with position deletes, 3 idle healthy, 3 idle fragmented), writers committing all the
            time. The writers and the clock start once both daemons joined the store's members.
            After %s the benchmark commits %d small files at once to an idle table the second
            daemon owns (so that its compaction takes a while), waits until that compaction has
            written files and kills the second daemon with `kill -9`; the writers go on to the end
            (%s in all), then stop, and the survivor goes on %d s more before the rows are
            compared.

            """,
            ServeTwoDaemonsBenchmark.HEAP,
            human(f.killAfter),
            ServeTwoDaemonsBenchmark.BACKLOG_FILES,
            human(f.duration),
            ServeTwoDaemonsBenchmark.QUIET.toSeconds()));
    if (f.otherHost != null) {
      out.append(
          String.format(
              Locale.ROOT,
              """
              The second daemon runs as if on another machine: in its own UTS and mount
              namespaces, with host name `%s` (and an `/etc/hosts` naming it), so that the
              survivor cannot see that its process is gone and takes it for dead only once its
              last heartbeat is older than the member lease.

              """,
              f.otherHost));
    }
    out.append("```yaml\n").append(ServeBenchmark.POLICY).append("```\n\n");
    results(out, f);
    perMember(out, f);
    healthRounds(out, f);
    survivorLines(out, f);
    out.append(
            "\nReproduce: `mvn -B -q -pl benchmarks -am test -Dtest=ServeTwoDaemonsBenchmark"
                + " -Dsurefire.failIfNoSpecifiedTests=false -Dlakeops.benchmark.members=")
        .append(human(f.duration))
        .append(f.otherHost == null ? "" : " -Dlakeops.benchmark.members.other-host=" + f.otherHost)
        .append("` (needs PostgreSQL at 127.0.0.1:5432, trust auth, database `test`).\n");
    return out.toString();
  }

  private static void results(StringBuilder out, Figures f) {
    out.append("| figure | target | measured |\n|---|---|---|\n");
    TwoDaemonsLedger ledger = f.ledger;
    long firstBefore = ledger.compactions(processOf(f, "first"), true);
    long secondBefore = ledger.compactions(processOf(f, "second"), true);
    row(
        out,
        "compactions before the kill (first / second daemon)",
        "both compact",
        firstBefore + " / " + secondBefore);
    row(
        out,
        "tables the killed daemon owned",
        "about half",
        f.killedTables.size() + " of 24 (" + f.killed + " daemon)");
    row(
        out,
        "takeover: kill to the survivor logging the member dead",
        "",
        seconds(f.killedAt, deathNoticed(f.survivorLog)));
    row(
        out,
        "takeover: kill to the survivor owning every one of them",
        "",
        seconds(f.killedAt, f.ownedAt));
    row(
        out,
        "takeover: kill to the survivor owning and having evaluated each",
        "<= 60 s (the member lease)",
        seconds(f.killedAt, f.evaluatedAt)
            + (f.notEvaluated.isEmpty() ? "" : ", not evaluated: " + f.notEvaluated));
    long across = f.overlaps.stream().filter(TwoDaemonsLedger.Overlap::acrossMembers).count();
    row(
        out,
        "runs of one table overlapping in time (across members / all)",
        "0",
        across + " / " + f.overlaps.size() + overlapDetail(f));
    row(
        out,
        "runs skipped because the other member held the table's lock",
        "",
        String.valueOf(ledger.lockSkips()));
    row(out, "the killed daemon's run in flight", "abandoned", killedRun(f));
    List<RunRecord> left = ledger.runsLeftByTheKilled();
    row(
        out,
        "runs of the killed daemon in flight at the kill",
        "all abandoned",
        left.size()
            + ": "
            + left.stream()
                .map(
                    run ->
                        run.start().operation()
                            + " of "
                            + run.start().table()
                            + " "
                            + run.status().name().toLowerCase(Locale.ROOT))
                .toList());
    row(
        out,
        "data files that run had written at the kill / left uncommitted at the end",
        "all removed",
        f.filesAtKill.size() + " / " + f.filesLeft.size());
    row(
        out,
        "runs left `running` in the ledger at the end",
        "0",
        String.valueOf(ledger.stillRunning().size()));
    row(
        out,
        "tables whose live rows equal what the writers committed",
        "all",
        (f.tablesCompared - f.rowMismatches.size())
            + " of "
            + f.tablesCompared
            + String.format(Locale.ROOT, " (%,d rows, writers %,d)", f.rowsAtEnd, f.rowsCommitted)
            + (f.rowMismatches.isEmpty() ? "" : ": " + f.rowMismatches));
    row(
        out,
        "tables whose fingerprint (rows, checksum) held over the quiet "
            + ServeTwoDaemonsBenchmark.QUIET.toSeconds()
            + " s",
        "all",
        (f.tablesCompared - f.fingerprintMismatches.size())
            + " of "
            + f.tablesCompared
            + (f.fingerprintMismatches.isEmpty() ? "" : ": " + f.fingerprintMismatches));
    row(
        out,
        "(table, sample) pairs healthy, whole run",
        ">= 90 %",
        String.format(
            Locale.ROOT,
            "%.1f %% (%d of %d)",
            f.samples.healthyShare() * 100,
            f.samples.healthy(),
            f.samples.total()));
    row(out, "healthy, samples before the kill", "", share(f, true));
    row(out, "healthy, samples after the kill", "", share(f, false));
    row(out, "unhealthy samples by table kind and worst part", "", f.samples.unhealthyByKind());
    row(out, "writer commits (failed)", "", f.writerCommits + " (" + f.writerFailures + ")");
    row(
        out,
        "peak RSS (first / second daemon)",
        "",
        mebibytes(f.peakRssFirst) + " / " + mebibytes(f.peakRssSecond));
  }

  private static void perMember(StringBuilder out, Figures f) {
    out.append("\n## Runs per member\n\n");
    out.append(
        "| daemon | process | compactions before the kill | after | other runs (expire,"
            + " orphans, manifests) |\n|---|---|---|---|---|\n");
    for (String name : List.of("first", "second")) {
      String process = processOf(f, name);
      out.append("| ")
          .append(name)
          .append(name.equals(f.killed) ? " (killed)" : " (survivor)")
          .append(" | `")
          .append(process)
          .append("` | ")
          .append(f.ledger.compactions(process, true))
          .append(" | ")
          .append(f.ledger.compactions(process, false))
          .append(" | ")
          .append(f.ledger.otherRuns(process))
          .append(" |\n");
    }
  }

  private static void healthRounds(StringBuilder out, Figures f) {
    out.append("\n## Health over the run\n\n");
    out.append("| seconds after start | healthy tables |\n|---|---|\n");
    boolean killShown = false;
    for (HealthSampler.Round round : f.samples.rounds()) {
      if (!killShown && round.at().isAfter(f.killedAt)) {
        out.append("| ")
            .append(Duration.between(f.started, f.killedAt).toSeconds())
            .append(" | **kill -9 of the ")
            .append(f.killed)
            .append(" daemon** |\n");
        killShown = true;
      }
      out.append("| ")
          .append(Duration.between(f.started, round.at()).toSeconds())
          .append(" | ")
          .append(round.healthy())
          .append(" of ")
          .append(round.tables())
          .append(" |\n");
    }
  }

  private static void survivorLines(StringBuilder out, Figures f) {
    out.append("\n## What the survivor logged about the killed daemon\n\n```\n");
    f.survivorLog.stream()
        .filter(
            line ->
                line.contains(" is dead: ")
                    || line.contains(" of dead member ")
                    || line.contains(" live member(s)"))
        .limit(12)
        .forEach(line -> out.append(line).append('\n'));
    out.append("```\n");
  }

  /** When the survivor's log says it found the killed member dead. */
  private static Instant deathNoticed(List<String> log) {
    return log.stream()
        .filter(line -> line.contains(" is dead: "))
        .findFirst()
        .map(line -> Instant.parse(line.substring(0, line.indexOf(' '))))
        .orElse(null);
  }

  private static String processOf(Figures f, String name) {
    return name.equals(f.killed) ? f.killedProcess : f.survivorProcess;
  }

  private static String overlapDetail(Figures f) {
    return f.overlaps.isEmpty()
        ? ""
        : ": " + f.overlaps.stream().limit(3).map(Object::toString).toList();
  }

  private static String killedRun(Figures f) {
    if (f.killedRun == null) {
      return "no compaction of " + f.backlogTable + " with files within the window; killed anyway";
    }
    RunRecord run = f.killedRunAtEnd;
    return "compact of "
        + f.killedRunTable
        + ": "
        + (run == null
            ? "not in the ledger"
            : run.status().name().toLowerCase(Locale.ROOT)
                + run.error().map(error -> ", `" + error + "`").orElse(""));
  }

  private static String share(Figures f, boolean before) {
    long healthy = 0;
    long total = 0;
    for (HealthSampler.Round round : f.samples.rounds()) {
      if (round.at().isBefore(f.killedAt) == before) {
        healthy += round.healthy();
        total += round.tables();
      }
    }
    return total == 0
        ? "n/a"
        : String.format(Locale.ROOT, "%.1f %% (%d of %d)", healthy * 100.0 / total, healthy, total);
  }

  private static String seconds(Instant from, Instant to) {
    return to == null
        ? "not seen"
        : String.format(Locale.ROOT, "%.1f s", Duration.between(from, to).toMillis() / 1000.0);
  }

  private static void row(StringBuilder out, String name, String target, Object value) {
    out.append("| ")
        .append(name)
        .append(" | ")
        .append(target)
        .append(" | ")
        .append(value)
        .append(" |\n");
  }

  private static String mebibytes(long bytes) {
    return String.format(Locale.ROOT, "%.0f MiB", bytes / 1048576.0);
  }

  private static String human(Duration duration) {
    long seconds = duration.toSeconds();
    return seconds % 60 == 0 ? seconds / 60 + "m" : seconds + "s";
  }
}
