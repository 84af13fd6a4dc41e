package dev.lakeops.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.control.MaintenanceDaemon;
import dev.lakeops.control.ServeSettings;
import dev.lakeops.learn.RunPlan;
import dev.lakeops.ledger.JdbcRunLedger;
import dev.lakeops.ledger.RunQuery;
import dev.lakeops.ledger.RunRecord;
import dev.lakeops.ledger.RunStatus;
import dev.lakeops.plan.RewriteOptions;
import dev.lakeops.policy.EffectivePolicy;
import dev.lakeops.policy.PolicyFile;
import dev.lakeops.policy.PolicyResolver;
import dev.lakeops.telemetry.store.StoreLocation;
import dev.lakeops.testing.SimpleTables;
import dev.lakeops.unit.ByteSize;
import io.prometheus.metrics.expositionformats.generated.com_google_protobuf_4_36_2.Metrics.MetricFamily;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.hadoop.HadoopFileIO;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.InputFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real concurrent writer makes a compaction of {@code serve} conflict: while the daemon reads a
 * data file it is about to rewrite, another writer deletes that file from the table (a separate
 * commit through its own table handle). The compaction's commit then finds one group invalidated
 * and drops it: the ledger records the conflict, {@code lakeops_commit_conflicts_total} counts it,
 * and the planner's next plan for the table turns on partial progress and smaller groups.
 */
class ServeCommitConflictTest {
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final String PROTOBUF =
      "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited";
  private static final String POLICY = "catalog:\n  compact.min-small-files: 4\n";

  /** What the writer does when the compaction first opens a data file (runs once). */
  private static final AtomicReference<java.util.function.Consumer<String>> ON_DATA_READ =
      new AtomicReference<>();

  @TempDir Path warehouse;
  @TempDir Path state;

  @AfterEach
  void disarm() {
    ON_DATA_READ.set(null);
  }

  @Test
  void aConcurrentDeleteIsRecordedCountedAndTurnsOnPartialProgress() throws Exception {
    HadoopCatalog catalog = catalog();
    Table table = SimpleTables.create(catalog, "clicks", 2, Map.of());
    for (int file = 0; file < 12; file++) {
      SimpleTables.append(table, file % 2, file * 100L, 100);
    }
    AtomicReference<String> deleted = new AtomicReference<>();
    AtomicBoolean fired = new AtomicBoolean();
    ON_DATA_READ.set(
        path -> {
          if (path.contains("/data/")
              && !path.contains("/metadata/")
              && fired.compareAndSet(false, true)) {
            // the other writer: its own table handle and commit, while the compaction is under way
            Table writer = catalog().loadTable(TableIdentifier.parse("db.clicks"));
            DataFile victim =
                dataFiles(writer).stream()
                    .filter(file -> file.location().equals(path))
                    .findFirst()
                    .orElseThrow();
            writer.newDelete().deleteFile(victim).commit();
            deleted.set(path);
          }
        });

    String store = "sqlite:" + state.resolve("lakeops.db");
    try (JdbcRunLedger ledger = JdbcRunLedger.open(StoreLocation.parse(store), Clock.systemUTC())) {
      PolicyResolver policies = new PolicyResolver(PolicyFile.parse(POLICY, "policy.yaml"));
      ServeSettings settings =
          ServeSettings.of(catalog, "lakeops", policies, ledger)
              .withOnce(true)
              .withLog(new PrintStream(OutputStream.nullOutputStream()));
      try (ServeObservability observability =
          ServeObservability.start(
              store,
              catalog,
              "lakeops",
              policies,
              ledger,
              Optional.of(new InetSocketAddress("127.0.0.1", 0)),
              () -> true,
              Clock.systemUTC())) {
        new MaintenanceDaemon(settings, observability.observer(), observability.advisor()).run();
        ON_DATA_READ.set(null);

        assertThat(deleted.get()).as("the writer deleted a file the compaction read").isNotNull();
        RunRecord compaction =
            ledger.list(RunQuery.all().withTable("db.clicks")).stream()
                .filter(run -> run.operation().equals("compact"))
                .findFirst()
                .orElseThrow();
        assertThat(compaction.status()).isEqualTo(RunStatus.SUCCEEDED);
        // one group (the deleted file's partition) dropped; the other partition's group committed
        assertThat(compaction.figures().commitConflicts()).isEqualTo(1);
        assertThat(compaction.figures().commitRetries()).isZero();
        assertThat(compaction.figures().inputFiles()).isEqualTo(6);

        Map<String, MetricFamily> families = scrape(observability.url().orElseThrow());
        assertThat(
                families.get("lakeops_commit_conflicts_total").getMetric(0).getCounter().getValue())
            .isEqualTo(1.0);

        table.refresh();
        EffectivePolicy policy =
            policies.resolve(TableIdentifier.parse("db.clicks"), table.properties());
        RunPlan next =
            observability
                .advisor()
                .plan("db.clicks", policy, 100_000, ByteSize.ofMegabytes(512))
                .orElseThrow();
        assertThat(next.partialProgress()).isTrue();
        assertThat(next.options())
            .containsEntry(RewriteOptions.PARTIAL_PROGRESS_ENABLED, "true")
            .containsEntry(RewriteOptions.MAX_FILE_GROUP_SIZE_BYTES, String.valueOf(1L << 30));
      }
    }

    // the table holds exactly the rows of the 11 files the writer left: nothing lost, nothing
    // doubled
    table.refresh();
    long count = 0;
    long sum = 0;
    try (CloseableIterable<Record> rows = IcebergGenerics.read(table).build()) {
      for (Record row : rows) {
        count++;
        sum += (Long) row.getField("id");
      }
    }
    assertThat(count).isEqualTo(1100);
    long deletedFirstId = Long.parseLong(deletedFirstIdOf(deleted.get()));
    assertThat(sum).isEqualTo(expectedSum(deletedFirstId));
  }

  private HadoopCatalog catalog() {
    HadoopCatalog catalog = new HadoopCatalog();
    catalog.setConf(new Configuration());
    catalog.initialize(
        "hadoop",
        Map.of("warehouse", warehouse.toString(), "io-impl", WriterHookFileIO.class.getName()));
    return catalog;
  }

  private static List<DataFile> dataFiles(Table table) {
    List<DataFile> files = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      tasks.forEach(task -> files.add(task.file()));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return files;
  }

  /** The first id in the deleted file, read from the file itself. */
  private String deletedFirstIdOf(String path) throws Exception {
    Table table = catalog().loadTable(TableIdentifier.parse("db.clicks"));
    try (CloseableIterable<Record> rows =
        org.apache.iceberg.parquet.Parquet.read(table.io().newInputFile(path))
            .project(table.schema())
            .createReaderFunc(
                schema ->
                    org.apache.iceberg.data.parquet.GenericParquetReaders.buildReader(
                        table.schema(), schema))
            .build()) {
      return String.valueOf((Long) rows.iterator().next().getField("id"));
    }
  }

  /** Sum of ids 0 to 1199 without the 100 ids of the deleted file. */
  private static long expectedSum(long deletedFirstId) {
    long all = 1199L * 1200 / 2;
    long deleted = 0;
    for (long id = deletedFirstId; id < deletedFirstId + 100; id++) {
      deleted += id;
    }
    return all - deleted;
  }

  private static Map<String, MetricFamily> scrape(String url) throws Exception {
    HttpResponse<byte[]> response =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(url + "/metrics")).header("Accept", PROTOBUF).build(),
            HttpResponse.BodyHandlers.ofByteArray());
    assertThat(response.statusCode()).isEqualTo(200);
    Map<String, MetricFamily> families = new java.util.LinkedHashMap<>();
    try (InputStream in = new ByteArrayInputStream(response.body())) {
      MetricFamily family;
      while ((family = MetricFamily.parseDelimitedFrom(in)) != null) {
        families.put(family.getName(), family);
      }
    }
    return families;
  }

  /** The catalog's FileIO: tells the test's writer when a data file is opened for reading. */
  public static final class WriterHookFileIO extends HadoopFileIO {
    public WriterHookFileIO() {}

    @Override
    public InputFile newInputFile(String path) {
      java.util.function.Consumer<String> hook = ON_DATA_READ.get();
      if (hook != null && path.endsWith(".parquet")) {
        hook.accept(path);
      }
      return super.newInputFile(path);
    }

    @Override
    public InputFile newInputFile(String path, long length) {
      java.util.function.Consumer<String> hook = ON_DATA_READ.get();
      if (hook != null && path.endsWith(".parquet")) {
        hook.accept(path);
      }
      return super.newInputFile(path, length);
    }
  }
}
