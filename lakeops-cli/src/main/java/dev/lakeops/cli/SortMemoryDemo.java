package dev.lakeops.cli;

import dev.lakeops.catalog.CatalogConnector;
import dev.lakeops.catalog.CatalogSettings;
import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.compact.Strategy;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.demo.DemoTableGenerator;
import dev.lakeops.unit.ByteSize;
import dev.lakeops.verify.RowFingerprint;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * The large-table check of docs/sort.md: sorts (or z-orders) a generated table of about 2 GB under
 * a small memory budget in whatever heap this JVM was given, then proves the rows unchanged and
 * prints the process's peak RSS during the compaction. The table is generated on the first run and
 * reused.
 *
 * <p>Arguments (all optional): {@code --warehouse DIR --files N --rows-per-file N --days N --memory
 * SIZE --spill-dir DIR --strategy sort|zorder}; defaults make the ~2 GB table of 4,000 files and
 * sort it with a 128 MB budget.
 */
public final class SortMemoryDemo {
  private static final TableIdentifier TABLE = TableIdentifier.of("demo", "events");
  private static final String SORT_ORDER = "country ASC NULLS FIRST, ts DESC";
  private static final List<String> ZORDER_COLUMNS = List.of("user_id", "ts");
  private static final Map<String, String> DEFAULTS =
      Map.of(
          "--warehouse", "lakeops-sort-demo",
          "--files", "4000",
          "--rows-per-file", "22800",
          "--days", "8",
          "--memory", "128MB",
          "--spill-dir", System.getProperty("java.io.tmpdir"),
          "--strategy", "sort");

  private SortMemoryDemo() {}

  public static void main(String[] args) throws IOException {
    Map<String, String> options = parse(args);
    Path warehouse = Path.of(options.get("--warehouse")).toAbsolutePath();
    String strategy = options.get("--strategy").toLowerCase(Locale.ROOT);
    if (!strategy.equals("sort") && !strategy.equals("zorder")) {
      throw new IllegalArgumentException(
          "Invalid --strategy '" + strategy + "': use sort or zorder");
    }
    Catalog catalog =
        CatalogConnector.connect(
            CatalogSettings.from(Optional.empty(), Optional.of(warehouse), Map.of()));
    Table table = tableOf(catalog, options);
    log(
        "heap limit (-Xmx) %s, memory budget %s, table %s: %s files, %s",
        mib(Runtime.getRuntime().maxMemory()),
        options.get("--memory"),
        table.location(),
        table.currentSnapshot().summary().get("total-data-files"),
        mib(Long.parseLong(table.currentSnapshot().summary().get("total-files-size"))));
    RowFingerprint before = RowFingerprint.of(table);
    log("rows before: %,d (checksum %016x)", before.rowCount(), before.checksum());

    CompactionRequest.Builder request =
        CompactionRequest.builder()
            .options(Map.of("rewrite-all", "true"))
            .memoryBudget(ByteSize.parse(options.get("--memory")))
            .spillDirectory(Path.of(options.get("--spill-dir")));
    request =
        strategy.equals("sort")
            ? request.strategy(Strategy.SORT).sortOrder(SORT_ORDER)
            : request.strategy(Strategy.ZORDER).zorderColumns(ZORDER_COLUMNS);
    boolean peakReset = resetPeakResident();
    long started = System.nanoTime();
    CompactionResult result = new TableCompactor().compact(table, request.build());
    Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
    long peakResident = statusBytes("VmHWM:");
    log(
        "%s: %d files (%s) -> %d files (%s) in %.1f s; Arrow peak %s; spilled %s in %d runs; overlapping files %d",
        strategy,
        result.inputFiles(),
        mib(result.inputBytes()),
        result.outputFiles(),
        mib(result.outputBytes()),
        elapsed.toNanos() / 1e9,
        mib(result.peakMemoryBytes()),
        mib(result.spilledBytes()),
        result.spillFiles(),
        result.overlappingFiles());
    log(
        "peak RSS of this JVM %s: %s",
        peakReset ? "during the compaction" : "since it started", mib(peakResident));

    RowFingerprint after = RowFingerprint.of(catalog.loadTable(TABLE));
    log("rows after:  %,d (checksum %016x)", after.rowCount(), after.checksum());
    if (!after.equals(before)) {
      log("ROWS CHANGED: the fingerprints differ");
      System.exit(1);
    }
    log("rows unchanged: identical count and checksum over every column");
  }

  private static Table tableOf(Catalog catalog, Map<String, String> options) {
    int files = positive(options, "--files");
    int rowsPerFile = positive(options, "--rows-per-file");
    if (catalog.tableExists(TABLE)) {
      Table existing = catalog.loadTable(TABLE);
      log("reusing %s (delete the warehouse directory to generate it again)", existing.location());
      return existing;
    }
    log("generating %,d files of %,d rows ...", files, rowsPerFile);
    long started = System.nanoTime();
    Table table =
        new DemoTableGenerator(catalog)
            .create(TABLE, 2, positive(options, "--days"), files, rowsPerFile, 50);
    log("generated in %.1f s", (System.nanoTime() - started) / 1e9);
    return table;
  }

  private static Map<String, String> parse(String[] args) {
    Map<String, String> options = new LinkedHashMap<>(DEFAULTS);
    for (int index = 0; index < args.length; index += 2) {
      if (!DEFAULTS.containsKey(args[index]) || index + 1 >= args.length) {
        throw new IllegalArgumentException(
            "Invalid argument '"
                + args[index]
                + "': use "
                + String.join(" VALUE, ", DEFAULTS.keySet())
                + " VALUE");
      }
      options.put(args[index], args[index + 1]);
    }
    return options;
  }

  private static int positive(Map<String, String> options, String key) {
    try {
      int value = Integer.parseInt(options.get(key));
      if (value > 0) {
        return value;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(
        "Invalid " + key + " '" + options.get(key) + "': give a positive number");
  }

  /** Resets the kernel's RSS high-water mark (Linux 4.0+), so VmHWM measures what follows. */
  private static boolean resetPeakResident() {
    try {
      Files.writeString(Path.of("/proc/self/clear_refs"), "5");
      return true;
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  private static long statusBytes(String field) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.UTF_8)) {
        if (line.startsWith(field)) {
          return Long.parseLong(line.substring(field.length()).trim().split("\\s+")[0]) * 1024;
        }
      }
    } catch (IOException | RuntimeException e) {
      return -1;
    }
    return -1;
  }

  private static String mib(long bytes) {
    return bytes < 0 ? "n/a" : String.format(Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024.0));
  }

  private static void log(String format, Object... args) {
    System.out.printf(Locale.ROOT, "[sort-demo] " + format + "%n", args);
  }
}
