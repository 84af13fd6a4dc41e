package dev.lakeops.learn.bench;

import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.control.MaintenanceDaemon;
import dev.lakeops.control.ServeSettings;
import dev.lakeops.learn.CompactionAdvisor;
import dev.lakeops.learn.LearnedCompactions;
import dev.lakeops.learn.PlannerDefaults;
import dev.lakeops.learn.RewritePath;
import dev.lakeops.learn.RunPlan;
import dev.lakeops.learn.RunPlanStore;
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
import org.apache.iceberg.DataFile;
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
 * The learning planner measured, not a test: runs only with {@code
 * -Dlakeops.benchmark.learning=true}.
 *
 * <ol>
 *   <li>One table re-fragmented and compacted 5 times with no configuration change: predicted
 *       against actual duration and peak memory of each run.
 *   <li>A lake of 20 tables compacted by {@code serve --once} under one 512 MB budget, once with
 *       the fixed defaults and once with the learning planner (each after a warm-up round that
 *       gives the planner its history): runs failed, total wall time.
 * </ol>
 *
 * <pre>
 * mvn -B -q -pl benchmarks -am test -Dtest=LearningBenchmark -Dsurefire.failIfNoSpecifiedTests=false -Dlakeops.benchmark.learning=true
 * </pre>
 *
 * Writes docs/benchmarks/learning-planner.md (or {@code -Dlakeops.benchmark.report=FILE}).
 */
@EnabledIfSystemProperty(named = "lakeops.benchmark.learning", matches = "true")
class LearningBenchmark {
  private static final int ROUNDS = Integer.getInteger("lakeops.benchmark.learning.rounds", 5);
  private static final int LAKE_TABLES =
      Integer.getInteger("lakeops.benchmark.learning.tables", 20);
  private static final String TARGET = String.valueOf(8L << 20);
  private static final int LAKE_ROUNDS =
      Integer.getInteger("lakeops.benchmark.learning.lakeRounds", 2);
  private static final String LAKE_POLICY =
      "catalog:\n  memory: 512MB\n  max-concurrent-tables: 4\n  compact.min-small-files: 4\n  compact.min-interval: 1s\n";

  @TempDir Path directory;
  private final Random random = new Random(42);

  @Test
  void measure() throws Exception {
    StringBuilder report = new StringBuilder();
    report
        .append("# Learning planner benchmark\n\n")
        .append("Run ")
        .append(Instant.now())
        .append(" on a 2-core machine shared with other work (figures are noisy).")
        .append(" Reproduce: `mvn -B -q -pl benchmarks -am test -Dtest=LearningBenchmark")
        .append(" -Dsurefire.failIfNoSpecifiedTests=false -Dlakeops.benchmark.learning=true`.\n\n");
    if (ROUNDS > 0) {
      repeatedCompactions(report);
    }
    lakeUnderOneBudget(report);
    Path out =
        Path.of(
            System.getProperty(
                "lakeops.benchmark.report", "../docs/benchmarks/learning-planner.md"));
    Files.writeString(out, report.toString());
    System.out.println(report);
  }

  private void repeatedCompactions(StringBuilder report) throws IOException {
    HadoopCatalog catalog =
        new HadoopCatalog(new Configuration(), directory.resolve("single").toString());
    Table table =
        SimpleTables.create(catalog, "events", 2, Map.of("write.target-file-size-bytes", TARGET));
    String store = "sqlite:" + directory.resolve("single.db");
    report
        .append("## One table, re-fragmented and compacted ")
        .append(ROUNDS)
        .append(" times\n\n")
        .append(
            "Each round appends 48 small files (about 47 MB, 4 partitions) and compacts them (bin-pack,")
        .append(
            " target 8 MB, files under 2 MB rewritten); nothing is configured between rounds. Three compactions")
        .append(
            " of other tables of the same size warm the JVM first, as a running daemon's is.\n\n")
        .append(
            "| run | input | path | predicted s | actual s | error | predicted peak | actual peak | error | learned |\n")
        .append("|---|---|---|---|---|---|---|---|---|---|\n");
    double worstDuration = 0;
    double worstMemory = 0;
    try (JdbcRunLedger ledger = JdbcRunLedger.open(StoreLocation.parse(store), Clock.systemUTC());
        StoreSession session = StoreSession.open(store)) {
      LearnedCompactions advisor =
          new LearnedCompactions(new RunPlanStore(session, "lakeops"), PlannerDefaults.standard());
      EffectivePolicy policy =
          new PolicyResolver(PolicyFile.empty())
              .resolve(TableIdentifier.parse("db.events"), table.properties());
      warmUp(catalog);
      long nextId = 0;
      for (int round = 1; round <= ROUNDS; round++) {
        for (int file = 0; file < 48; file++) {
          TableFiles.append(
              table, SimpleTables.partition(table, file % 4), rows(table, nextId, 8000, file % 4));
          nextId += 8000;
        }
        table.refresh();
        long input = smallFileBytes(table, 2L << 20);
        RunPlan plan =
            advisor.plan("db.events", policy, input, ByteSize.ofMegabytes(512)).orElseThrow();
        RunHandle run =
            ledger.start(
                new RunStart(
                    "lakeops",
                    "db.events",
                    "compact",
                    "benchmark round " + round,
                    RunHost.SERVE,
                    false));
        advisor.started(run.runId(), "db.events", plan);
        Map<String, String> options = new java.util.HashMap<>(plan.options());
        options.put("min-file-size-bytes", String.valueOf(2L << 20));
        CompactionResult result =
            new TableCompactor()
                .compact(
                    table,
                    CompactionRequest.builder()
                        .options(options)
                        .memoryBudget(plan.memoryShare())
                        .build());
        run.succeeded(RunOutcomes.of(result));
        advisor.finished(run.runId(), "db.events", plan, result);
        double predictedSeconds = plan.predictedDuration().toMillis() / 1000.0;
        double actualSeconds = result.elapsed().toMillis() / 1000.0;
        double durationError = Math.abs(predictedSeconds - actualSeconds) / actualSeconds;
        double memoryError =
            Math.abs(plan.predictedPeakMemory().bytes() - result.peakMemoryBytes())
                / (double) Math.max(1, result.peakMemoryBytes());
        if (round >= 3) {
          worstDuration = Math.max(worstDuration, durationError);
          worstMemory = Math.max(worstMemory, memoryError);
        }
        report.append(
            String.format(
                Locale.ROOT,
                "| %d | %s | %s | %.2f | %.2f | %.0f %% | %s | %s | %.0f %% | %s |%n",
                round,
                ByteSize.ofBytes(result.inputBytes()),
                RewritePath.of(result).label(),
                predictedSeconds,
                actualSeconds,
                100 * durationError,
                plan.predictedPeakMemory(),
                ByteSize.ofBytes(result.peakMemoryBytes()),
                100 * memoryError,
                plan.learned() ? "yes" : "no (defaults)"));
        table.refresh();
      }
    }
    report.append(
        String.format(
            Locale.ROOT,
            "%nWorst error from the 3rd run on: duration %.0f %%, peak memory %.0f %% (target: at most 25 %% each): %s.%n%n",
            100 * worstDuration,
            100 * worstMemory,
            worstDuration <= 0.25 && worstMemory <= 0.25 ? "met" : "NOT met"));
  }

  /**
   * Three compactions of other tables of the same size first, so the measured runs meet a warm JVM
   * as a daemon's do.
   */
  private void warmUp(HadoopCatalog catalog) {
    for (int round = 0; round < 3; round++) {
      Table warm =
          SimpleTables.create(
              catalog, "warm_up_" + round, 2, Map.of("write.target-file-size-bytes", TARGET));
      for (int file = 0; file < 48; file++) {
        TableFiles.append(
            warm, SimpleTables.partition(warm, file % 4), rows(warm, file * 8000L, 8000, file % 4));
      }
      new TableCompactor().compact(warm, CompactionRequest.binpack());
    }
  }

  private void lakeUnderOneBudget(StringBuilder report) throws Exception {
    List<Lake> lakes = new ArrayList<>();
    try {
      lakes.add(new Lake("fixed", false));
      lakes.add(new Lake("learned", true));
      long[] tableBytes = new long[LAKE_TABLES];
      List<String> rounds = new ArrayList<>();
      double[] totals = new double[2];
      for (int round = 0; round <= LAKE_ROUNDS; round++) {
        List<List<DataFile>> files = lakes.get(0).fragment(round, List.of());
        lakes.get(1).fragment(round, files);
        if (round == 1) {
          for (int index = 0; index < LAKE_TABLES; index++) {
            tableBytes[index] =
                files.get(index).stream().mapToLong(DataFile::fileSizeInBytes).sum();
          }
        }
        // measured rounds alternate which mode runs first, so a change of the machine's load hits
        // both
        List<Lake> order = round % 2 == 1 ? lakes : List.of(lakes.get(1), lakes.get(0));
        StringBuilder line = new StringBuilder();
        for (Lake lake : order) {
          String loadBefore = loadAverage();
          Duration wall = lake.compact();
          String loadAfter = loadAverage();
          if (round > 0) {
            totals[lake.learned ? 1 : 0] += wall.toMillis() / 1000.0;
          }
          line.append(
              String.format(
                  Locale.ROOT,
                  "| %s | %s | %.1f s | %s -> %s |%n",
                  round == 0 ? "0 (warm-up)" : String.valueOf(round),
                  lake.name,
                  wall.toMillis() / 1000.0,
                  loadBefore,
                  loadAfter));
        }
        rounds.add(line.toString());
      }
      long smallest = java.util.Arrays.stream(tableBytes).min().orElse(0);
      long largest = java.util.Arrays.stream(tableBytes).max().orElse(0);
      long total = java.util.Arrays.stream(tableBytes).sum();
      report
          .append("## ")
          .append(LAKE_TABLES)
          .append(" tables under one 512 MB budget\n\n")
          .append("Two identical lakes (the same files, copied) of ")
          .append(LAKE_TABLES)
          .append(" tables, 4 partitions each.")
          .append(
              " Each round appends to every table 20 to 32 files of 8,000 rows (about 1 MB each): ")
          .append(ByteSize.ofBytes(smallest))
          .append(" to ")
          .append(ByteSize.ofBytes(largest))
          .append(" per table, ")
          .append(ByteSize.ofBytes(total))
          .append(" per lake and round; every third table also gets a position delete")
          .append(
              " file for each new data file (50 rows), so its compactions decode (columnar path) while the others")
          .append(
              " copy row groups (decode-free path). Then `serve --once` compacts the lake (policy: memory 512MB,")
          .append(
              " max-concurrent-tables 4, compact.min-small-files 4, target 8 MB): once with the fixed defaults")
          .append(
              " (an equal 128 MB share per table, as many groups as cores, queue by benefit per byte), once with")
          .append(" the learning planner. Round 0 gives the planner its history; rounds 1 to ")
          .append(LAKE_ROUNDS)
          .append(
              " are measured, the mode that runs first alternating. Load: `/proc/loadavg` 1-minute average before")
          .append(" and after each round.\n\n")
          .append("| round | mode | wall time | load before -> after |\n|---|---|---|---|\n");
      rounds.forEach(report::append);
      report
          .append(
              "\n| mode | measured rounds' wall time | compactions | failed | failed for memory | peak memory of any run |")
          .append(
              " largest memory share | decode-free / columnar runs |\n|---|---|---|---|---|---|---|---|\n");
      for (Lake lake : lakes) {
        report.append(lake.summary(totals[lake.learned ? 1 : 0]));
      }
      report.append(
          String.format(
              Locale.ROOT,
              "%nLearned against fixed, measured rounds: %.1f s against %.1f s (%.0f %%): %s.%n%n",
              totals[1],
              totals[0],
              100 * totals[1] / totals[0],
              totals[1] <= totals[0] ? "met" : "NOT met"));
    } finally {
      for (Lake lake : lakes) {
        lake.close();
      }
    }
  }

  private static String loadAverage() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
    } catch (IOException e) {
      return "?";
    }
  }

  /** One lake of the 20-table part, with its store and the daemon settings of its mode. */
  private final class Lake implements AutoCloseable {
    private final String name;
    private final boolean learned;
    private final List<Table> tables = new ArrayList<>();
    private final JdbcRunLedger ledger;
    private final StoreSession session;
    private final CompactionAdvisor advisor;
    private final ServeSettings settings;

    Lake(String name, boolean learned) {
      this.name = name;
      this.learned = learned;
      HadoopCatalog catalog =
          new HadoopCatalog(new Configuration(), directory.resolve("lake-" + name).toString());
      for (int index = 0; index < LAKE_TABLES; index++) {
        tables.add(
            SimpleTables.create(
                catalog, "t" + index, 2, Map.of("write.target-file-size-bytes", TARGET)));
      }
      String store = "sqlite:" + directory.resolve("lake-" + name + ".db");
      ledger = JdbcRunLedger.open(StoreLocation.parse(store), Clock.systemUTC());
      session = StoreSession.open(store);
      advisor =
          learned
              ? new LearnedCompactions(
                  new RunPlanStore(session, "lakeops"), PlannerDefaults.standard())
              : CompactionAdvisor.NONE;
      settings =
          ServeSettings.of(
                  catalog,
                  "lakeops",
                  new PolicyResolver(PolicyFile.parse(LAKE_POLICY, "policy.yaml")),
                  ledger)
              .withOnce(true)
              .withLog(new PrintStream(OutputStream.nullOutputStream()));
    }

    /**
     * Appends a round of small files (and position deletes on every third table), one commit each:
     * new files, or copies of {@code written} (the other lake's files of this round) when given.
     * Returns the data files appended, per table.
     */
    List<List<DataFile>> fragment(int round, List<List<DataFile>> written) throws IOException {
      List<List<DataFile>> appended = new ArrayList<>();
      for (int index = 0; index < tables.size(); index++) {
        Table table = tables.get(index);
        Random seeded = new Random(round * 1000L + index);
        int files = 20 + 3 * (index % 5);
        List<DataFile> tableFiles = new ArrayList<>();
        for (int file = 0; file < files; file++) {
          DataFile dataFile;
          if (written.isEmpty()) {
            long firstId = ((long) round * 100 + file) * 8000;
            dataFile =
                TableFiles.append(
                    table,
                    SimpleTables.partition(table, file % 4),
                    rows(table, firstId, 8000, file % 4, seeded));
          } else {
            dataFile = copyInto(table, written.get(index).get(file));
          }
          tableFiles.add(dataFile);
          if (index % 3 == 0) {
            TableFiles.deletePositions(
                table,
                dataFile,
                java.util.stream.LongStream.range(0, 50).map(row -> row * 150).toArray());
          }
        }
        appended.add(tableFiles);
      }
      return appended;
    }

    /** Copies {@code source}'s file into {@code table}'s data folder and appends it. */
    private DataFile copyInto(Table table, DataFile source) throws IOException {
      Path from = Path.of(java.net.URI.create(source.location()).getPath());
      Path folder =
          Files.createDirectories(
              Path.of(java.net.URI.create(table.location()).getPath(), "data", "copies"));
      Path to = folder.resolve(from.getFileName());
      Files.copy(from, to);
      DataFile copy =
          org.apache.iceberg.DataFiles.builder(table.spec())
              .copy(source)
              .withPath(to.toString())
              .build();
      table.newAppend().appendFile(copy).commit();
      return copy;
    }

    Duration compact() {
      long started = System.nanoTime();
      new MaintenanceDaemon(settings, LakeObserver.all(List.of()), advisor).run();
      return Duration.ofNanos(System.nanoTime() - started);
    }

    String summary(double measuredSeconds) {
      List<RunRecord> runs =
          ledger.list(RunQuery.all().withLimit(10_000)).stream()
              .filter(run -> run.operation().equals("compact"))
              .toList();
      long failed = runs.stream().filter(run -> run.status() == RunStatus.FAILED).count();
      long forMemory =
          runs.stream()
              .filter(
                  run ->
                      run.error()
                          .map(error -> error.toLowerCase(Locale.ROOT).contains("memory"))
                          .orElse(false))
              .count();
      long peak = runs.stream().mapToLong(run -> run.figures().peakMemoryBytes()).max().orElse(0);
      long[] paths = new long[2];
      long largestShare =
          session.inTransaction(
              "read the plans",
              connection -> {
                try (java.sql.Statement statement = connection.createStatement();
                    java.sql.ResultSet rows =
                        statement.executeQuery(
                            "SELECT rewrite_path, memory_share_bytes FROM lakeops_run_plan")) {
                  long largest = 0;
                  while (rows.next()) {
                    paths[rows.getString(1).equals("decode-free") ? 0 : 1]++;
                    largest = Math.max(largest, rows.getLong(2));
                  }
                  return largest;
                }
              });
      return String.format(
          Locale.ROOT,
          "| %s | %.1f s | %d | %d | %d | %s | %s | %s |%n",
          name,
          measuredSeconds,
          runs.size(),
          failed,
          forMemory,
          ByteSize.ofBytes(peak),
          learned ? ByteSize.ofBytes(largestShare).toString() : "128MB (fixed)",
          learned ? paths[0] + " / " + paths[1] : "-");
    }

    @Override
    public void close() {
      session.close();
      ledger.close();
    }
  }

  private List<Record> rows(Table table, long firstId, int count, int part) {
    return rows(table, firstId, count, part, random);
  }

  private static List<Record> rows(Table table, long firstId, int count, int part, Random random) {
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
