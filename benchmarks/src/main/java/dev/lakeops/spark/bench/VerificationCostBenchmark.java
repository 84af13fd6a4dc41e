package dev.lakeops.spark.bench;

import com.sun.management.OperatingSystemMXBean;
import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.compact.Strategy;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.verify.VerificationMode;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.iceberg.Table;

/**
 * What verification costs: the same generated table compacted in this JVM with {@code --verify
 * off}, {@code counts} and {@code checksum}, binpack and sort, each run on a fresh copy, in rounds
 * whose order of modes rotates; reports the median wall and CPU time of each mode and its ratio to
 * {@code off}. A first binpack run warms the JIT and is not counted. Usage: {@code
 * VerificationCostBenchmark <size> <work directory> <report directory> [rounds]}; the report goes
 * to {@code verification-cost.md}.
 */
public final class VerificationCostBenchmark {
  private static final List<VerificationMode> MODES =
      List.of(VerificationMode.OFF, VerificationMode.COUNTS, VerificationMode.CHECKSUM);

  private VerificationCostBenchmark() {}

  public static void main(String[] args) throws IOException {
    BenchmarkSize size = BenchmarkSize.parse(args[0]);
    Path work = Path.of(args[1]).resolve("verification-" + size.label());
    Path reports = Path.of(args[2]);
    int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 3;
    Table source = SideBySideBenchmark.sourceTable(work, size, BenchmarkSource.GENERATOR);
    String loadBefore = ProcessMemory.loadAverage();
    measure(source, work, Strategy.BINPACK, VerificationMode.COUNTS, "warmup");
    Map<Strategy, Map<VerificationMode, List<Run>>> runs = new EnumMap<>(Strategy.class);
    for (Strategy strategy : List.of(Strategy.BINPACK, Strategy.SORT)) {
      Map<VerificationMode, List<Run>> byMode = new EnumMap<>(VerificationMode.class);
      for (int round = 0; round < rounds; round++) {
        for (int index = 0; index < MODES.size(); index++) {
          VerificationMode mode = MODES.get((index + round) % MODES.size());
          byMode
              .computeIfAbsent(mode, key -> new ArrayList<>())
              .add(measure(source, work, strategy, mode, "round-" + round));
        }
      }
      runs.put(strategy, byMode);
    }
    String loadAfter = ProcessMemory.loadAverage();
    ReportFiles.publish(
        reports,
        "verification-cost.md",
        report(size, rounds, runs, loadBefore, loadAfter),
        true,
        "");
  }

  private static Run measure(
      Table source, Path work, Strategy strategy, VerificationMode mode, String label) {
    Path warehouse =
        work.resolve("runs")
            .resolve(strategy.displayName() + "-" + mode.displayName() + "-" + label);
    SideBySideBenchmark.deleteRecursively(warehouse);
    Table copy =
        TableCopies.copy(source, SideBySideBenchmark.catalog(warehouse), SideBySideBenchmark.TABLE);
    CompactionRequest.Builder request =
        CompactionRequest.builder()
            .strategy(strategy)
            .options(
                Map.of(
                    "target-file-size-bytes",
                    String.valueOf(SideBySideBenchmark.TARGET_FILE_SIZE_BYTES)))
            .memoryBudget(SideBySideBenchmark.MEMORY_BUDGET)
            .verify(mode);
    if (strategy == Strategy.SORT) {
      request.sortOrder(CompactionPhase.SORT_ORDER);
    }
    System.gc();
    OperatingSystemMXBean os = ManagementFactory.getPlatformMXBean(OperatingSystemMXBean.class);
    long cpuBefore = os.getProcessCpuTime();
    long started = System.nanoTime();
    CompactionResult result = new TableCompactor().compact(copy, request.build());
    Duration wall = Duration.ofNanos(System.nanoTime() - started);
    Duration cpu = Duration.ofNanos(os.getProcessCpuTime() - cpuBefore);
    SideBySideBenchmark.log(
        "%s %s %s: %s wall, %s CPU, %d rows verified, fallbacks %s",
        strategy.displayName(),
        mode.displayName(),
        label,
        wall,
        cpu,
        result.verifiedRows(),
        result.fallbackReasons());
    SideBySideBenchmark.deleteRecursively(warehouse);
    return new Run(wall, cpu, result.verifiedRows());
  }

  private static String report(
      BenchmarkSize size,
      int rounds,
      Map<Strategy, Map<VerificationMode, List<Run>>> runs,
      String loadBefore,
      String loadAfter) {
    StringBuilder text = new StringBuilder();
    text.append("# What verification costs (")
        .append(size.label())
        .append(", ")
        .append(LocalDate.now(ZoneOffset.UTC))
        .append(")\n\n")
        .append("The generated ")
        .append(size.label())
        .append(" table (")
        .append(size.files())
        .append(" files) compacted in one JVM with `--verify off`, `counts` and `checksum`, ")
        .append("each run on a fresh copy, ")
        .append(rounds)
        .append(" rounds with the order of modes rotating; median wall and CPU time of each mode ")
        .append("and its ratio to `off`. Revision ")
        .append(RepositoryRevision.describe())
        .append(", ")
        .append(Runtime.getRuntime().availableProcessors())
        .append(" processors, load average (1 / 5 / 15 min) ")
        .append(loadBefore)
        .append(" before and ")
        .append(loadAfter)
        .append(" after.\n\n")
        .append(
            "| strategy | verify | wall s | CPU s | wall vs off | CPU vs off | verified rows |\n")
        .append("|---|---|---:|---:|---:|---:|---:|\n");
    runs.forEach(
        (strategy, byMode) -> {
          Run off = median(byMode.get(VerificationMode.OFF));
          for (VerificationMode mode : MODES) {
            Run run = median(byMode.get(mode));
            text.append(
                String.format(
                    Locale.ROOT,
                    "| %s | %s | %.2f | %.2f | %+.1f %% | %+.1f %% | %d |%n",
                    strategy.displayName(),
                    mode.displayName(),
                    seconds(run.wall()),
                    seconds(run.cpu()),
                    percent(run.wall(), off.wall()),
                    percent(run.cpu(), off.cpu()),
                    run.verifiedRows()));
          }
        });
    text.append("\nReproduce: `")
        .append(ReportFiles.MAVEN_COMMAND)
        .append(" -Dlakeops.benchmark.verification=")
        .append(size.label())
        .append("`\n");
    return text.toString();
  }

  /** The run of median wall time; its CPU time is that run's. */
  private static Run median(List<Run> runs) {
    List<Run> sorted = new ArrayList<>(runs);
    sorted.sort((left, right) -> left.wall().compareTo(right.wall()));
    return sorted.get(sorted.size() / 2);
  }

  private static double seconds(Duration duration) {
    return duration.toNanos() / 1e9;
  }

  private static double percent(Duration value, Duration base) {
    return 100.0 * (value.toNanos() - base.toNanos()) / base.toNanos();
  }

  private record Run(Duration wall, Duration cpu, long verifiedRows) {}
}
