package dev.lakeops.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.demo.DemoTableGenerator;
import dev.lakeops.ledger.JdbcRunLedger;
import dev.lakeops.ledger.RunQuery;
import dev.lakeops.ledger.RunRecord;
import dev.lakeops.ledger.RunStatus;
import dev.lakeops.telemetry.store.StoreLocation;
import dev.lakeops.testing.CommandLineRun;
import dev.lakeops.verify.RowFingerprint;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.NativeCodeLoader;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.LoggerFactory;

/**
 * A refused run writes nothing (every file of the warehouse, the default run store included, stays
 * as it was), a successful {@code compact} with the default store adds exactly one metadata
 * version, and every command prints only its own lines.
 */
class RefusedRunTest {
  @TempDir Path warehouse;
  private Table table;
  private Path tableDirectory;

  @BeforeEach
  void createTable() {
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
    table =
        new DemoTableGenerator(catalog)
            .create(TableIdentifier.of("db", "events"), 2, 2, 10, 100, 5);
    tableDirectory = warehouse.resolve("db").resolve("events");
  }

  static Stream<Arguments> refusedCompactions() {
    return Stream.of(
        Arguments.of(
            List.of("--strategy", "sort", "--sort-order", "nosuchcol"),
            "Invalid sort order 'nosuchcol': unknown column 'nosuchcol'"),
        Arguments.of(
            List.of("--strategy", "zorder", "--zorder-columns", "user_id,nosuchcol"),
            "Invalid zorder_columns column 'nosuchcol'"),
        Arguments.of(List.of("--strategy", "sort"), "Table lakeops.db.events has no sort order"),
        Arguments.of(
            List.of("--target-file-size", "0"),
            "Invalid value 0 for rewrite option 'target-file-size-bytes'"),
        Arguments.of(
            List.of("--option", "no-such-option=1"), "Unknown rewrite option 'no-such-option'"),
        Arguments.of(
            List.of("--option", "max-file-group-size-bytes=abc"),
            "Invalid value 'abc' for rewrite option 'max-file-group-size-bytes'"),
        Arguments.of(List.of("--where", "country = "), "Invalid where filter \"country = \""),
        Arguments.of(
            List.of("--where", "nope = 1"),
            "Invalid where filter \"nope = 1\": unknown column 'nope' in lakeops.db.events;"
                + " columns: event_id"),
        Arguments.of(List.of("--memory-budget", "1KB"), "Memory budget 1.0KB is too small"),
        Arguments.of(
            List.of("--strategy", "sort", "--sort-order", "event_id", "--verify", "sha1"),
            "Invalid verify value 'sha1': use one of counts, checksum, off"),
        Arguments.of(
            List.of("--strategy", "auto", "--where", "nope = 1"),
            "Invalid where filter \"nope = 1\""));
  }

  @ParameterizedTest
  @MethodSource("refusedCompactions")
  void refusedCompactionWritesNothing(List<String> arguments, String message) {
    WarehouseFiles before = WarehouseFiles.of(warehouse);

    CommandLineRun run = compact(arguments.toArray(String[]::new));

    assertRefusedWithOneLine(run, message);
    assertThat(WarehouseFiles.of(warehouse)).isEqualTo(before);
    assertThat(warehouse.resolve(".lakeops")).doesNotExist();
  }

  @Test
  void refusedMaintenanceWritesNothing() {
    WarehouseFiles before = WarehouseFiles.of(warehouse);

    assertRefusedWithOneLine(
        CommandLineRun.of(
            "expire-snapshots",
            "db.events",
            "--warehouse",
            warehouse.toString(),
            "--older-than",
            "7x"),
        "Invalid --older-than '7x'");
    assertRefusedWithOneLine(
        CommandLineRun.of(
            "expire-snapshots",
            "db.events",
            "--warehouse",
            warehouse.toString(),
            "--retain-last",
            "0"),
        "Invalid --retain-last 0: every branch keeps at least its head; use 1 or more");
    assertRefusedWithOneLine(
        CommandLineRun.of(
            "remove-orphan-files",
            "db.events",
            "--warehouse",
            warehouse.toString(),
            "--older-than",
            "1x"),
        "Invalid --older-than '1x'");
    assertRefusedWithOneLine(
        CommandLineRun.of(
            "serve", "--warehouse", warehouse.toString(), "--once", "--lock-lease", "abc"),
        "Invalid --lock-lease 'abc'");

    assertThat(WarehouseFiles.of(warehouse)).isEqualTo(before);
    assertThat(warehouse.resolve(".lakeops")).doesNotExist();
  }

  @Test
  void badPolicyValueStopsServeBeforeItTouchesAnything() throws Exception {
    Path policy = Files.createTempFile("policy", ".yaml");
    try {
      Files.writeString(policy, "tables:\n  db.events:\n    expire: {older-than: 7x}\n");
      WarehouseFiles before = WarehouseFiles.of(warehouse);

      assertRefusedWithOneLine(
          CommandLineRun.of(
              "serve",
              "--warehouse",
              warehouse.toString(),
              "--once",
              "--policy",
              policy.toString()),
          policy + ": expire.older-than in tables.db.events: '7x' is not a duration");

      assertThat(WarehouseFiles.of(warehouse)).isEqualTo(before);
      assertThat(warehouse.resolve(".lakeops")).doesNotExist();
    } finally {
      Files.delete(policy);
    }
  }

  @Test
  void missingTableWarehouseOrMetadataIsRefusedWithoutWriting() throws Exception {
    WarehouseFiles before = WarehouseFiles.of(warehouse);
    assertRefusedWithOneLine(
        CommandLineRun.of("compact", "db.nosuch", "--warehouse", warehouse.toString()),
        "Table 'db.nosuch' not found");
    assertThat(WarehouseFiles.of(warehouse)).isEqualTo(before);

    Path missing = warehouse.resolveSibling(warehouse.getFileName() + "-missing");
    assertRefusedWithOneLine(
        CommandLineRun.of("compact", "db.events", "--warehouse", missing.toString()),
        "Warehouse " + missing.toAbsolutePath() + " does not exist");
    assertThat(missing).doesNotExist();

    Path current = newestMetadata();
    Files.writeString(current, "{\"format-version\": 2, \"table-uuid\": ");
    WarehouseFiles corrupt = WarehouseFiles.of(warehouse);
    CommandLineRun run = compact();
    assertThat(run.exitCode()).isNotZero();
    assertThat(run.stderr().lines()).hasSize(1).first().asString().startsWith("lakeops: error: ");
    assertThat(WarehouseFiles.of(warehouse)).isEqualTo(corrupt);
    assertThat(warehouse.resolve(".lakeops")).doesNotExist();
  }

  @Test
  void dataFileMissingOnDiskFailsTheRunWithoutAMetadataVersionOrAFile() throws Exception {
    Path gone = Path.of(firstDataFile().location().replaceFirst("^file:", ""));
    Files.delete(gone);
    // the run store under the warehouse records the failed run: that is its job
    WarehouseFiles before = WarehouseFiles.of(warehouse, path -> !path.startsWith(".lakeops"));
    long versions = WarehouseFiles.metadataVersions(tableDirectory);

    CommandLineRun run = compact();

    assertThat(run.exitCode()).isNotZero();
    assertThat(run.stdout()).isEmpty();
    assertThat(run.stderr().lines()).hasSize(1).first().asString().startsWith("lakeops: error: ");
    assertThat(run.stderr()).contains(gone.getFileName().toString());
    assertThat(WarehouseFiles.metadataVersions(tableDirectory)).isEqualTo(versions);
    assertThat(WarehouseFiles.of(warehouse, path -> !path.startsWith(".lakeops")))
        .isEqualTo(before);
    assertThat(runs()).singleElement().extracting(RunRecord::status).isEqualTo(RunStatus.FAILED);
  }

  @Test
  void successfulCompactionAddsExactlyOneMetadataVersionAndPrintsOneLine() {
    RowFingerprint before = RowFingerprint.of(table);
    long versions = WarehouseFiles.metadataVersions(tableDirectory);

    CommandLineRun run = compact("--memory-budget", "64MB");

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    assertThat(run.stderr()).isEmpty();
    assertThat(run.stdout().lines())
        .singleElement()
        .asString()
        .startsWith("Compacted lakeops.db.events (binpack): 10 files");
    assertThat(WarehouseFiles.metadataVersions(tableDirectory)).isEqualTo(versions + 1);
    table.refresh();
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    assertThat(table.properties()).doesNotContainKey("lakeops.lock.owner");
    assertThat(runs()).singleElement().extracting(RunRecord::status).isEqualTo(RunStatus.SUCCEEDED);
  }

  @Test
  void jsonOutputIsOneLineAndNothingElse() {
    CommandLineRun run = compact("--json");

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    assertThat(run.stderr()).isEmpty();
    assertThat(run.stdout().lines()).singleElement().asString().startsWith("{");
  }

  @Test
  void mistypedCommandSuggestsTheNearestOne() {
    CommandLineRun run = CommandLineRun.of("compactt", "db.events");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.stdout()).isEmpty();
    assertThat(run.stderr().lines())
        .containsExactly(
            "lakeops: error: Unmatched arguments from index 0: 'compactt', 'db.events'",
            "Did you mean: lakeops compact?",
            "Try 'lakeops --help'.");
  }

  @Test
  void mistypedOptionSuggestsTheNearestOne() {
    CommandLineRun run = compact("--strategx", "sort");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.stderr().lines())
        .containsExactly(
            "lakeops: error: Unknown options: '--strategx', 'sort'",
            "Did you mean: --strategy?",
            "Try 'lakeops compact --help'.");
  }

  @Test
  void hadoopsNativeLibraryNoteIsSilenced() {
    assertThat(LoggerFactory.getLogger(NativeCodeLoader.class).isWarnEnabled()).isFalse();
    assertThat(LoggerFactory.getLogger("org.apache.iceberg").isWarnEnabled()).isTrue();
  }

  private CommandLineRun compact(String... arguments) {
    String[] all = new String[arguments.length + 4];
    all[0] = "compact";
    all[1] = "db.events";
    all[2] = "--warehouse";
    all[3] = warehouse.toString();
    System.arraycopy(arguments, 0, all, 4, arguments.length);
    return CommandLineRun.of(all);
  }

  private static void assertRefusedWithOneLine(CommandLineRun run, String message) {
    assertThat(run.exitCode()).as(run.stderr()).isNotZero();
    assertThat(run.stdout()).isEmpty();
    assertThat(run.stderr().lines())
        .as(run.stderr())
        .singleElement()
        .asString()
        .startsWith("lakeops: error: " + message);
  }

  private List<RunRecord> runs() {
    try (JdbcRunLedger ledger =
        JdbcRunLedger.open(
            StoreLocation.sqliteFile(warehouse.resolve(".lakeops").resolve("lakeops.db")),
            Clock.systemUTC())) {
      return ledger.list(RunQuery.all());
    }
  }

  private Path newestMetadata() throws Exception {
    try (Stream<Path> files = Files.list(tableDirectory.resolve("metadata"))) {
      return files
          .filter(path -> path.toString().endsWith(".metadata.json"))
          .max(
              java.util.Comparator.comparingInt(
                  path -> Integer.parseInt(path.getFileName().toString().replaceAll("\\D", ""))))
          .orElseThrow();
    }
  }

  private DataFile firstDataFile() throws Exception {
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      return tasks.iterator().next().file();
    }
  }
}
