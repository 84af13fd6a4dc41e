package dev.lakeops.learn;

import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.control.MaintenanceDaemon;
import dev.lakeops.control.ServeSettings;
import dev.lakeops.ledger.JdbcRunLedger;
import dev.lakeops.ledger.RunHandle;
import dev.lakeops.ledger.RunHost;
import dev.lakeops.ledger.RunQuery;
import dev.lakeops.ledger.RunRecord;
import dev.lakeops.ledger.RunStart;
import dev.lakeops.ledger.RunStatus;
import dev.lakeops.observe.LakeObserver;
import dev.lakeops.observe.StoreSession;
import dev.lakeops.policy.EffectivePolicy;
import dev.lakeops.policy.PolicyFile;
import dev.lakeops.policy.PolicyResolver;
import dev.lakeops.runs.RunOutcomes;
import dev.lakeops.telemetry.store.StoreLocation;
import dev.lakeops.testing.SimpleTables;
import dev.lakeops.testing.TableFiles;
import dev.lakeops.unit.ByteSize;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * The learning planner measured, not a test: runs only with {@code -Dlakeops.benchmark.learning=true}.
 *
 * <ol>
 *   <li>One table re-fragmented and compacted 5 times with no configuration change: predicted
 *       against actual duration and peak memory of each run.
 *   <li>A lake of 20 tables compacted by {@code serve --once} under one 512 MB budget, once with the
 *       fixed defaults and once with the learning planner (each after a warm-up round that gives the
 *       planner its history): runs failed, total wall time.
 * </ol>
 *
 * <pre>
 * mvn -B -q -pl core-engine -am test -Dtest=LearningBenchmark -Dsurefire.failIfNoSpecifiedTests=false -Dlakeops.benchmark.learning=true
 * </pre>
 *
 * Writes docs/benchmarks/learning-planner.md (or {@code -Dlakeops.benchmark.report=FILE}).
 */
@EnabledIfSystemProperty(named = "lakeops.benchmark.learning", matches = "true")
class LearningBenchmark {
  private static final int ROUNDS = Integer.getInteger("lakeops.benchmark.learning.rounds", 5);
  private static final int LAKE_TABLES = Integer.getInteger("lakeops.benchmark.learning.tables", 20);
  private static final String TARGET = String.valueOf(8L << 20);
  private static final String LAKE_POLICY = "catalog:\n  memory: 512MB\n  max-concurrent-tables: 4\n  compact.min-small-files: 8\n";

  @TempDir Path directory;
  private final Random random = new Random(42);

  @Test
  void measure() throws Exception {
    StringBuilder report = new StringBuilder();
    report.append("# Learning planner benchmark\n\n")
        .append("Run ").append(Instant.now()).append(" on a 2-core machine shared with other work (figures are noisy).")
        .append(" Reproduce: `mvn -B -q -pl core-engine -am test -Dtest=LearningBenchmark")
        .append(" -Dsurefire.failIfNoSpecifiedTests=false -Dlakeops.benchmark.learning=true`.\n\n");
    repeatedCompactions(report);
    lakeUnderOneBudget(report);
    Path out = Path.of(System.getProperty("lakeops.benchmark.report", "../docs/benchmarks/learning-planner.md"));
    Files.writeString(out, report.toString());
    System.out.println(report);
  }

  private void repeatedCompactions(StringBuilder report) throws IOException {
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), directory.resolve("single").toString());
    Table table = SimpleTables.create(catalog, "events", 2, Map.of("write.target-file-size-bytes", TARGET));
    String store = "sqlite:" + directory.resolve("single.db");
    report.append("## One table, re-fragmented and compacted ").append(ROUNDS).append(" times\n\n")
        .append("Each round appends 48 small files (about 47 MB, 4 partitions) and compacts them (bin-pack,")
        .append(" target 8 MB, files under 2 MB rewritten); nothing is configured between rounds. Three compactions")
        .append(" of other tables of the same size warm the JVM first, as a running daemon's is.\n\n")
        .append("| run | input | path | predicted s | actual s | error | predicted peak | actual peak | error | learned |\n")
        .append("|---|---|---|---|---|---|---|---|---|---|\n");
    double worstDuration = 0;
    double worstMemory = 0;
    try (JdbcRunLedger ledger = JdbcRunLedger.open(StoreLocation.parse(store), Clock.systemUTC());
        StoreSession session = StoreSession.open(store)) {
      LearnedCompactions advisor = new LearnedCompactions(new RunPlanStore(session, "lakeops"), PlannerDefaults.standard());
      EffectivePolicy policy = new PolicyResolver(PolicyFile.empty()).resolve(TableIdentifier.parse("db.events"), table.properties());
      warmUp(catalog);
      long nextId = 0;
      for (int round = 1; round <= ROUNDS; round++) {
        for (int file = 0; file < 48; file++) {
          TableFiles.append(table, SimpleTables.partition(table, file % 4), rows(table, nextId, 8000, file % 4));
          nextId += 8000;
        }
        table.refresh();
        long input = smallFileBytes(table, 2L << 20);
        RunPlan plan = advisor.plan("db.events", policy, input, ByteSize.ofMegabytes(512)).orElseThrow();
        RunHandle run = ledger.start(new RunStart("lakeops", "db.events", "compact", "benchmark round " + round, RunHost.SERVE, false));
        advisor.started(run.runId(), "db.events", plan);
        Map<String, String> options = new java.util.HashMap<>(plan.options());
        options.put("min-file-size-bytes", String.valueOf(2L << 20));
        CompactionResult result = new TableCompactor().compact(table, CompactionRequest.builder()
            .options(options).memoryBudget(plan.memoryShare()).build());
        run.succeeded(RunOutcomes.of(result));
        advisor.finished(run.runId(), "db.events", plan, result);
        double predictedSeconds = plan.predictedDuration().toMillis() / 1000.0;
        double actualSeconds = result.elapsed().toMillis() / 1000.0;
        double durationError = Math.abs(predictedSeconds - actualSeconds) / actualSeconds;
        double memoryError = Math.abs(plan.predictedPeakMemory().bytes() - result.peakMemoryBytes()) / (double) Math.max(1, result.peakMemoryBytes());
        if (round >= 3) {
          worstDuration = Math.max(worstDuration, durationError);
          worstMemory = Math.max(worstMemory, memoryError);
        }
        report.append(String.format(Locale.ROOT, "| %d | %s | %s | %.2f | %.2f | %.0f %% | %s | %s | %.0f %% | %s |%n",
            round, ByteSize.ofBytes(result.inputBytes()), RewritePath.of(result).label(), predictedSeconds, actualSeconds,
            100 * durationError, plan.predictedPeakMemory(), ByteSize.ofBytes(result.peakMemoryBytes()), 100 * memoryError,
            plan.learned() ? "yes" : "no (defaults)"));
        table.refresh();
      }
    }
    report.append(String.format(Locale.ROOT,
        "%nWorst error from the 3rd run on: duration %.0f %%, peak memory %.0f %% (target: at most 25 %% each): %s.%n%n",
        100 * worstDuration, 100 * worstMemory, worstDuration <= 0.25 && worstMemory <= 0.25 ? "met" : "NOT met"));
  }

  /** Three compactions of other tables of the same size first, so the measured runs meet a warm JVM as a daemon's do. */
  private void warmUp(HadoopCatalog catalog) {
    for (int round = 0; round < 3; round++) {
      Table warm = SimpleTables.create(catalog, "warm_up_" + round, 2, Map.of("write.target-file-size-bytes", TARGET));
      for (int file = 0; file < 48; file++) {
        TableFiles.append(warm, SimpleTables.partition(warm, file % 4), rows(warm, file * 8000L, 8000, file % 4));
      }
      new TableCompactor().compact(warm, CompactionRequest.binpack());
    }
  }

  private void lakeUnderOneBudget(StringBuilder report) throws Exception {
    report.append("## ").append(LAKE_TABLES).append(" tables under one 512 MB budget\n\n")
        .append("`serve --once` (max-concurrent-tables 4) on two identical lakes; each lake gets a warm-up round")
        .append(" (fragment, compact) so the planner has history, then a measured round (fragment again, compact).\n\n")
        .append("| mode | measured round wall time | compactions | failed | peak memory of any run |\n|---|---|---|---|---|\n");
    for (boolean learned : new boolean[] {false, true}) {
      String name = learned ? "learned" : "fixed";
      HadoopCatalog catalog = new HadoopCatalog(new Configuration(), directory.resolve("lake-" + name).toString());
      List<Table> tables = new ArrayList<>();
      for (int index = 0; index < LAKE_TABLES; index++) {
        tables.add(SimpleTables.create(catalog, "t" + index, 2, Map.of("write.target-file-size-bytes", TARGET)));
      }
      String store = "sqlite:" + directory.resolve("lake-" + name + ".db");
      try (JdbcRunLedger ledger = JdbcRunLedger.open(StoreLocation.parse(store), Clock.systemUTC());
          StoreSession session = StoreSession.open(store)) {
        CompactionAdvisor advisor = learned
            ? new LearnedCompactions(new RunPlanStore(session, "lakeops"), PlannerDefaults.standard())
            : CompactionAdvisor.NONE;
        ServeSettings settings = ServeSettings.of(catalog, "lakeops", new PolicyResolver(PolicyFile.parse(LAKE_POLICY, "policy.yaml")), ledger)
            .withOnce(true).withLog(new PrintStream(OutputStream.nullOutputStream()));
        Duration measured = Duration.ZERO;
        for (int round = 0; round < 2; round++) {
          fragment(tables, round);
          long started = System.nanoTime();
          new MaintenanceDaemon(settings, LakeObserver.all(List.of()), advisor).run();
          measured = Duration.ofNanos(System.nanoTime() - started);
        }
        List<RunRecord> runs = ledger.list(RunQuery.all().withLimit(10_000)).stream()
            .filter(run -> run.operation().equals("compact")).toList();
        long failed = runs.stream().filter(run -> run.status() == RunStatus.FAILED).count();
        long peak = runs.stream().mapToLong(run -> run.figures().peakMemoryBytes()).max().orElse(0);
        report.append(String.format(Locale.ROOT, "| %s | %.1f s | %d | %d | %s |%n",
            name, measured.toMillis() / 1000.0, runs.size(), failed, ByteSize.ofBytes(peak)));
      }
    }
    report.append("\n");
  }

  private void fragment(List<Table> tables, int round) {
    for (Table table : tables) {
      for (int file = 0; file < 10; file++) {
        TableFiles.append(table, SimpleTables.partition(table, 0), rows(table, (round * 100L + file) * 1000, 1000, 0));
      }
    }
  }

  private List<Record> rows(Table table, long firstId, int count, int part) {
    List<Record> rows = new ArrayList<>(count);
    byte[] bytes = new byte[120];
    for (int index = 0; index < count; index++) {
      GenericRecord record = GenericRecord.create(table.schema());
      record.setField("id", firstId + index);
      record.setField("part", part);
      random.nextBytes(bytes);
      record.setField("data", java.util.HexFormat.of().formatHex(bytes));
      rows.add(record);
    }
    return rows;
  }

  private static long smallFileBytes(Table table, long below) throws IOException {
    long total = 0;
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        if (task.file().fileSizeInBytes() < below) {
          total += task.file().fileSizeInBytes();
        }
      }
    }
    return total;
  }
}
