package dev.lakeops.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;

/**
 * The planning benchmark: a metadata-only table of {@code files} small data files (20 partitions,
 * 40 KB and 1,000 rows each, appended in commits of 50,000 files), planned for binpack and sort and
 * committed (binpack groups of 4 MB, 10 output files each) by the core tests' {@code
 * PlanAndCommitAtScale} in a child JVM with {@code -Xmx1g}. Writes {@code planning-<files>.md} into
 * the report directory.
 *
 * <p>Arguments: {@code <files> <work directory> <report directory>}. The generated table is kept in
 * {@code <work>/planning-<files>} and reused.
 */
public final class PlanningScaleBenchmark {
  private static final String HEAP = "-Xmx1g";

  /**
   * What the child JVM runs: core-engine's test-jar, which the planning-benchmark profile puts on
   * the class path (it cannot be a compile-time dependency of this module, see its pom).
   */
  private static final String PLAN_AND_COMMIT_MAIN = "dev.lakeops.plan.PlanAndCommitAtScale";

  private PlanningScaleBenchmark() {}

  public static void main(String[] args) throws Exception {
    int files = Integer.parseInt(args[0]);
    Path warehouse = Path.of(args[1]).toAbsolutePath().resolve("planning-" + files);
    Path reports = Path.of(args[2]).toAbsolutePath();
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
    TableIdentifier name = TableIdentifier.of("db", "t");
    long generateMillis = 0;
    if (!catalog.tableExists(name)) {
      Table table = MetadataOnlyTable.create(catalog, name);
      long started = System.nanoTime();
      MetadataOnlyTable.appendSmallFiles(table, files, 20, 40_000, 1_000);
      generateMillis = (System.nanoTime() - started) / 1_000_000;
    }
    String loadBefore = loadAverage();
    List<String> lines = runChild(warehouse);
    String loadAfter = loadAverage();
    lines.forEach(System.out::println);
    Path report = reports.resolve("planning-" + (files / 1000) + "k.md");
    Files.writeString(report, markdown(files, generateMillis, lines, loadBefore, loadAfter));
    System.out.println("wrote " + report);
  }

  private static List<String> runChild(Path warehouse) throws IOException, InterruptedException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process child =
        new ProcessBuilder(
                java,
                HEAP,
                "-XX:+ExitOnOutOfMemoryError",
                "-XX:+UseSerialGC",
                "--add-opens=java.base/java.nio=ALL-UNNAMED",
                "-cp",
                System.getProperty("java.class.path"),
                PLAN_AND_COMMIT_MAIN,
                warehouse.toString(),
                "4000000",
                "10")
            .redirectErrorStream(true)
            .start();
    List<String> lines = new ArrayList<>();
    try (BufferedReader reader = child.inputReader()) {
      reader
          .lines()
          .filter(line -> line.startsWith("phase=") || line.startsWith("result "))
          .forEach(lines::add);
    }
    if (child.waitFor() != 0) {
      throw new IllegalStateException(
          "The planning JVM failed (exit " + child.exitValue() + "): " + lines);
    }
    return lines;
  }

  private static String markdown(
      int files, long generateMillis, List<String> lines, String loadBefore, String loadAfter) {
    StringBuilder text = new StringBuilder();
    text.append("# Planning and committing ")
        .append(String.format(Locale.ROOT, "%,d", files))
        .append(" files\n\n");
    text.append(
        String.format(
            Locale.ROOT,
            "Measured %s on %d processors, shared with other builds (load average 1/5/15 min: %s before, %s after)."
                + " A metadata-only Iceberg table (format v2, `(id long, part int, data string)`, 20 identity"
                + " partitions) of %,d data files of 40 KB and 1,000 rows each, with column bounds as footers give"
                + " them, appended with `DataFiles.builder` in commits of 50,000 files%s. One child JVM with `%s`"
                + " (serial GC) plans and commits; per phase it reports the heap's peak use (MemoryMXBean pool peaks,"
                + " reset after a full GC before the phase: includes garbage not yet collected) and the live heap"
                + " after a full GC at its end (with the phase's result still held).\n\n",
            Instant.now().truncatedTo(ChronoUnit.SECONDS),
            Runtime.getRuntime().availableProcessors(),
            loadBefore,
            loadAfter,
            files,
            generateMillis > 0
                ? String.format(Locale.ROOT, " (generated in %.1f s)", generateMillis / 1000.0)
                : "",
            HEAP));
    text.append("| phase | what | time | peak heap | live heap after |\n|---|---|---|---|---|\n");
    Map<String, String> what = new LinkedHashMap<>();
    what.put(
        "plan-binpack",
        "`BinPackPlanner`: every file, groups of at most 4 MB (`max-file-group-size-bytes`)");
    what.put(
        "plan-sort",
        "`SortPlanner` for sort order `id`: the same groups plus per-group column summaries (a second, streaming scan with the statistics of `id` and `part`)");
    what.put(
        "commit",
        "`RewriteCommitManager` + `RewriteCommitter`: one `RewriteFiles` commit replacing every planned file with 10 new files per group, validated from the starting snapshot");
    String result = "";
    for (String line : lines) {
      if (line.startsWith("result ")) {
        result = line.substring("result ".length());
        continue;
      }
      Map<String, String> fields = fields(line);
      text.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %.1f s | %d MiB | %d MiB |\n",
              fields.get("phase"),
              what.getOrDefault(fields.get("phase"), ""),
              Long.parseLong(fields.get("millis")) / 1000.0,
              Long.parseLong(fields.get("peak-heap-bytes")) >> 20,
              Long.parseLong(fields.get("live-heap-bytes")) >> 20));
    }
    text.append("\nOutcome: `").append(result).append("`.\n\n");
    text.append(
        "How it stays bounded: planned files carry no column statistics (Iceberg's scan drops them); sort and"
            + " z-order read what they need from per-group summaries folded while a second scan streams the"
            + " statistics of only the key and exact-bound columns; the plan keeps the delete-file targets of"
            + " the planned groups only. What remains per planned file is its scan task without statistics"
            + " (a few hundred bytes), which the commit needs anyway to remove the file.\n\n");
    text.append(
        "Reproduce (generates the table once under `benchmarks/target/benchmark`, then reuses it):\n\n```bash\n"
            + "mvn -B -q -pl benchmarks -am process-test-classes -Dlakeops.benchmark.planning="
            + files
            + "\n```\n");
    return text.toString();
  }

  private static Map<String, String> fields(String line) {
    Map<String, String> fields = new LinkedHashMap<>();
    for (String field : line.split(" ")) {
      int equals = field.indexOf('=');
      if (equals > 0) {
        fields.put(field.substring(0, equals), field.substring(equals + 1));
      }
    }
    return fields;
  }

  private static String loadAverage() {
    try {
      String[] parts = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return parts[0] + " / " + parts[1] + " / " + parts[2];
    } catch (IOException e) {
      return "unknown";
    }
  }
}
