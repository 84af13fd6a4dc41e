package dev.lakeops.flink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.compact.CompactionListener;
import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.ledger.JdbcRunLedger;
import dev.lakeops.ledger.RunHost;
import dev.lakeops.ledger.RunLedger;
import dev.lakeops.ledger.RunQuery;
import dev.lakeops.ledger.RunRecord;
import dev.lakeops.ledger.RunStatus;
import dev.lakeops.lock.HeldTableLock;
import dev.lakeops.lock.LockOptions;
import dev.lakeops.lock.TableLease;
import dev.lakeops.lock.TableLocks;
import dev.lakeops.lock.TableLockedException;
import dev.lakeops.telemetry.store.TelemetryStore;
import dev.lakeops.telemetry.store.TelemetryStoreFactory;
import dev.lakeops.verify.RowFingerprint;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.stream.StreamSupport;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.flink.CatalogLoader;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.flink.sink.IcebergSink;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real Flink job on a MiniCluster: a bounded stream written by Iceberg's {@code IcebergSink}
 * with a checkpoint every 200 ms, and the LakeOps hook attached.
 */
class LakeOpsCompactionMiniClusterTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "category", Types.StringType.get()),
          Types.NestedField.optional(3, "payload", Types.StringType.get()));
  private static final TableIdentifier IDENTIFIER = TableIdentifier.of("db", "events");
  // 40 checkpoints of 200 ms: long enough for the hook's first (cold) compaction, which takes
  // seconds on a loaded 2-core machine, to commit while the stream still writes
  private static final long ROWS = 6_000;
  private static final int ROWS_PER_CHECKPOINT = 150;

  @RegisterExtension
  static final MiniClusterExtension MINI_CLUSTER =
      new MiniClusterExtension(
          new MiniClusterResourceConfiguration.Builder()
              .setNumberTaskManagers(1)
              .setNumberSlotsPerTaskManager(2)
              .build());

  @TempDir Path warehouse;

  @Test
  void hookCompactsDuringTheRunUnderTheCrossEngineLock() throws Exception {
    HadoopCatalog catalog = new HadoopCatalog(new org.apache.hadoop.conf.Configuration(), warehouse.toString());
    catalog.createTable(
        IDENTIFIER, SCHEMA, PartitionSpec.builderFor(SCHEMA).identity("category").build(),
        Map.of(TableProperties.FORMAT_VERSION, "2"));
    TableLoader loader =
        TableLoader.fromCatalog(
            CatalogLoader.hadoop(
                "hadoop", new org.apache.hadoop.conf.Configuration(), Map.of("warehouse", warehouse.toString())),
            IDENTIFIER);
    Path telemetry = warehouse.resolve("telemetry.db");

    Configuration configuration = new Configuration();
    configuration.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(configuration);
    env.enableCheckpointing(200);
    env.setParallelism(2);
    DataStream<RowData> rows =
        env.fromSource(
            new DataGeneratorSource<>(
                LakeOpsCompactionMiniClusterTest::row, ROWS,
                RateLimiterStrategy.perCheckpoint(ROWS_PER_CHECKPOINT),
                InternalTypeInfo.of(FlinkSchemaUtil.convert(SCHEMA))),
            WatermarkStrategy.noWatermarks(),
            "rows");
    DataStreamSink<RowData> sink = IcebergSink.forRowData(rows).tableLoader(loader).append();
    LakeOpsCompaction.forTable(loader)
        .minNewFiles(8)
        .minInterval(Duration.ofMillis(300))
        .rewriteOptions(Map.of("min-input-files", "2"))
        .telemetry("sqlite:" + telemetry)
        .build()
        .attachTo(sink);

    // Phase 1: the CLI holds the lock, so the hook is refused and the stream carries on.
    HeldTableLock cliLock =
        new TableLocks(LockOptions.defaults().withOwnerLabel("cli")).acquire(catalog.loadTable(IDENTIFIER));
    JobClient job = env.executeAsync("lakeops-hook");
    waitUntil(() -> writerCommits(catalog.loadTable(IDENTIFIER)) >= 6, Duration.ofMinutes(2));
    assertThat(compactions(catalog.loadTable(IDENTIFIER))).isZero();
    cliLock.close();

    // Phase 2: while the hook compacts, a CLI compaction of the same table is refused.
    List<String> refusals = new ArrayList<>();
    int cliCompactions = 0;
    while (!job.getJobStatus().get().isGloballyTerminalState()) {
      Table current = catalog.loadTable(IDENTIFIER);
      String owner = current.properties().get(TableLease.OWNER_PROPERTY);
      if (refusals.isEmpty() && owner != null && owner.startsWith("flink-job-")) {
        try {
          new TableCompactor(CompactionListener.NONE, LockOptions.defaults().withOwnerLabel("cli"))
              .compact(current, CompactionRequest.builder().options(Map.of("min-input-files", "2")).build());
          cliCompactions++;
        } catch (TableLockedException e) {
          refusals.add(e.getMessage());
        }
      }
      Thread.sleep(20);
    }
    job.getJobExecutionResult().get();
    assertThat(job.getJobStatus().get()).isEqualTo(JobStatus.FINISHED);

    Table table = catalog.loadTable(IDENTIFIER);
    int commits = writerCommits(table);
    int dataFiles = dataFiles(table);
    assertThat(commits).isGreaterThanOrEqualTo((int) (ROWS / ROWS_PER_CHECKPOINT) / 2);
    assertThat(compactions(table) - cliCompactions).as("compactions by the hook").isPositive();
    assertThat(refusals)
        .as("a CLI compaction refused while the hook held the lock")
        .singleElement()
        .satisfies(message -> assertThat(message)
            .startsWith("Table " + table.name() + " is being compacted by flink-job-")
            .contains("a lease expiring at"));
    // the hook runs after checkpoints, so the last commits may still be uncompacted when the
    // bounded stream ends, and how many (and whether the writer commits again after the hook's
    // first compaction) depends on the machine's speed: assert only that the hook's compactions
    // (above) left fewer files than the sink wrote
    assertThat(dataFiles).isLessThan(writtenDataFiles(table));
    assertThat(table.properties()).doesNotContainKey(TableLease.OWNER_PROPERTY);

    RowFingerprint written = RowFingerprint.of(table);
    assertThat(written.rowCount()).isEqualTo(ROWS);
    assertThat(written).isEqualTo(RowFingerprint.of(expectedTable(catalog)));

    try (TelemetryStore store = TelemetryStoreFactory.open("sqlite:" + telemetry)) {
      assertThat(store.countEvents()).isBetween((long) commits / 2, (long) commits);
    }
    assertHookCompactionsAreLedgerRows(table, "sqlite:" + telemetry, compactions(table) - cliCompactions);
  }

  /** Each compaction the hook committed is a succeeded ledger row whose figures are its snapshot's. */
  private static void assertHookCompactionsAreLedgerRows(Table table, String store, int hookCompactions) {
    List<RunRecord> runs;
    try (RunLedger ledger = JdbcRunLedger.open(store)) {
      runs = ledger.list(RunQuery.all().withTable("db.events"));
    }
    assertThat(runs).allSatisfy(run -> {
      assertThat(run.start().host()).isEqualTo(RunHost.FLINK);
      assertThat(run.start().catalog()).isEqualTo("hadoop");
      assertThat(run.operation()).isEqualTo("compact");
      assertThat(run.start().reason()).matches("checkpoint \\d+: \\d+ .*");
      assertThat(run.status()).isIn(RunStatus.SUCCEEDED, RunStatus.ABANDONED, RunStatus.FAILED);
    });
    List<RunRecord> committed =
        runs.stream().filter(run -> run.status() == RunStatus.SUCCEEDED && run.figures().snapshotId().isPresent()).toList();
    assertThat(committed).hasSize(hookCompactions);
    for (RunRecord run : committed) {
      Snapshot snapshot = table.snapshot(run.figures().snapshotId().getAsLong());
      assertThat(snapshot.operation()).isEqualTo(DataOperations.REPLACE);
      assertThat(run.figures().inputFiles()).isEqualTo(Long.parseLong(snapshot.summary().get("deleted-data-files")));
      assertThat(run.figures().outputFiles()).isEqualTo(Long.parseLong(snapshot.summary().get("added-data-files")));
    }
  }

  private static RowData row(Long index) {
    return GenericRowData.of(
        index, StringData.fromString(index % 2 == 0 ? "a" : "b"), StringData.fromString("payload-" + index));
  }

  private static Table expectedTable(HadoopCatalog catalog) throws IOException {
    Table expected = catalog.createTable(TableIdentifier.of("db", "expected"), SCHEMA);
    OutputFileFactory files = OutputFileFactory.builderFor(expected, 1, 1).format(FileFormat.PARQUET).build();
    DataFile file;
    try (DataWriter<Record> writer =
        Parquet.writeData(files.newOutputFile())
            .forTable(expected)
            .createWriterFunc(GenericParquetWriter::create)
            .overwrite()
            .build()) {
      for (long index = 0; index < ROWS; index++) {
        GenericRecord record = GenericRecord.create(SCHEMA);
        record.setField("id", index);
        record.setField("category", index % 2 == 0 ? "a" : "b");
        record.setField("payload", "payload-" + index);
        writer.write(record);
      }
      writer.close();
      file = writer.toDataFile();
    }
    expected.newAppend().appendFile(file).commit();
    return expected;
  }

  private static int writtenDataFiles(Table table) {
    return snapshots(table).stream()
        .filter(s -> DataOperations.APPEND.equals(s.operation()))
        .mapToInt(s -> Integer.parseInt(s.summary().getOrDefault("added-data-files", "0")))
        .sum();
  }

  private static int writerCommits(Table table) {
    return (int) snapshots(table).stream().filter(s -> DataOperations.APPEND.equals(s.operation())).count();
  }

  private static int compactions(Table table) {
    return (int) snapshots(table).stream().filter(s -> DataOperations.REPLACE.equals(s.operation())).count();
  }

  private static List<Snapshot> snapshots(Table table) {
    return StreamSupport.stream(table.snapshots().spliterator(), false).toList();
  }

  private static int dataFiles(Table table) throws IOException {
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      int count = 0;
      for (FileScanTask ignored : tasks) {
        count++;
      }
      return count;
    }
  }

  private static void waitUntil(BooleanSupplier condition, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("Condition not met within " + timeout);
      }
      Thread.sleep(20);
    }
  }
}
