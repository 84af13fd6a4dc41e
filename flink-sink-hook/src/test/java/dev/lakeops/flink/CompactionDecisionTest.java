package dev.lakeops.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakeops.telemetry.event.TableName;
import dev.lakeops.telemetry.event.TelemetryEvent;
import dev.lakeops.unit.ByteSize;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The hook's decisions without Flink: thresholds, filters, telemetry and options. */
class CompactionDecisionTest {
  private static final Instant NOW = Instant.parse("2026-11-30T10:00:00Z");
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "category", Types.StringType.get()),
          Types.NestedField.optional(3, "day", Types.DateType.get()));

  @TempDir Path warehouse;

  @Test
  void defaultsArePinned() {
    CompactionHookOptions defaults = CompactionHookOptions.defaults();
    assertThat(defaults.minNewFiles()).isEqualTo(20);
    assertThat(defaults.smallFileThreshold()).isEmpty();
    assertThat(defaults.minSmallBytes()).isEmpty();
    assertThat(defaults.minDeleteFiles()).isEqualTo(10);
    assertThat(defaults.minInterval()).isEqualTo(Duration.ofMinutes(1));
    assertThat(defaults.maxPartitions()).isEqualTo(64);
    assertThat(defaults.memory()).isEqualTo(ByteSize.ofMegabytes(256));
    assertThat(defaults.rewriteOptions()).isEmpty();
    assertThat(defaults.lockWait()).isEqualTo(Duration.ZERO);
    assertThat(defaults.leaseDuration()).isEqualTo(Duration.ofMinutes(5));
    assertThat(defaults.closeTimeout()).isEqualTo(Duration.ofMinutes(5));
    assertThat(defaults.telemetryStore()).isEmpty();
  }

  @Test
  void optionsSurviveJavaSerializationAsFlinkShipsThem() throws Exception {
    CompactionHookOptions options =
        new CompactionHookOptions(
            3,
            Optional.of(ByteSize.ofMegabytes(8)),
            Optional.empty(),
            4,
            Duration.ofSeconds(5),
            7,
            ByteSize.ofMegabytes(64),
            Map.of("min-input-files", "2"),
            Duration.ofSeconds(1),
            Duration.ofMinutes(2),
            Duration.ofSeconds(30),
            Optional.of("sqlite:/tmp/t.db"),
            Optional.of("checksum"));
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(options);
    }
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      assertThat(in.readObject()).isEqualTo(options);
    }
  }

  @Test
  void invalidOptionsNameTheOption() {
    assertThatThrownBy(
            () ->
                new CompactionHookOptions(
                    0,
                    Optional.empty(),
                    Optional.empty(),
                    1,
                    Duration.ZERO,
                    1,
                    ByteSize.ofMegabytes(1),
                    Map.of(),
                    Duration.ZERO,
                    Duration.ofMinutes(1),
                    Duration.ZERO,
                    Optional.empty(),
                    Optional.empty()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("minNewFiles must be positive: 0");
    assertThatThrownBy(
            () ->
                new CompactionHookOptions(
                    1,
                    Optional.empty(),
                    Optional.empty(),
                    1,
                    Duration.ofSeconds(-1),
                    1,
                    ByteSize.ofMegabytes(1),
                    Map.of(),
                    Duration.ZERO,
                    Duration.ofMinutes(1),
                    Duration.ZERO,
                    Optional.empty(),
                    Optional.empty()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("minInterval must not be negative: PT-1S");
    assertThatThrownBy(
            () ->
                new CompactionHookOptions(
                    1,
                    Optional.empty(),
                    Optional.empty(),
                    1,
                    Duration.ZERO,
                    1,
                    ByteSize.ofMegabytes(1),
                    Map.of(),
                    Duration.ZERO,
                    Duration.ofMinutes(1),
                    Duration.ZERO,
                    Optional.empty(),
                    Optional.of("sometimes")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Invalid verify value 'sometimes': use one of");
  }

  @Test
  void triggerFiresOnSmallFilesSmallBytesOrDeletesAndHonoursTheInterval() {
    CompactionTrigger trigger =
        new CompactionTrigger(
            new CompactionHookOptions(
                4,
                Optional.empty(),
                Optional.of(ByteSize.ofBytes(1000)),
                2,
                Duration.ofSeconds(30),
                64,
                ByteSize.ofMegabytes(64),
                Map.of(),
                Duration.ZERO,
                Duration.ofMinutes(5),
                Duration.ofMinutes(1),
                Optional.empty(),
                Optional.empty()));
    WriteSignals threeSmall = signals(commit(1, 3, 300, 0), commit(2, 0, 0, 0));
    assertThat(trigger.reasonToCompact(threeSmall, NOW, Optional.empty())).isEmpty();

    WriteSignals fourSmall = signals(commit(1, 3, 300, 0), commit(2, 1, 100, 0));
    assertThat(trigger.reasonToCompact(fourSmall, NOW, Optional.empty()))
        .hasValue("4 small data files added since the last compaction (min 4)");
    assertThat(trigger.reasonToCompact(fourSmall, NOW, Optional.of(NOW.minusSeconds(10))))
        .isEmpty();
    assertThat(trigger.reasonToCompact(fourSmall, NOW, Optional.of(NOW.minusSeconds(30))))
        .isPresent();

    WriteSignals bigSmallFiles = signals(commit(1, 2, 1200, 0));
    assertThat(trigger.reasonToCompact(bigSmallFiles, NOW, Optional.empty()))
        .hasValue(
            "2 small data files of 1200 bytes added since the last compaction (min 1000 bytes)");

    WriteSignals deletes = signals(commit(1, 0, 0, 1), commit(2, 0, 0, 1));
    assertThat(trigger.reasonToCompact(deletes, NOW, Optional.empty()))
        .hasValue("2 delete files added since the last compaction (min 2)");
  }

  @Test
  void identityPartitionsBecomeAWhereFilter() {
    Table table =
        new HadoopCatalog(new Configuration(), warehouse.toString())
            .createTable(
                TableIdentifier.of("db", "t"),
                SCHEMA,
                PartitionSpec.builderFor(SCHEMA).identity("category").identity("day").build());
    int spec = table.spec().specId();
    Set<PartitionValues> partitions =
        Set.of(
            new PartitionValues(spec, List.of("it's", 20_000)),
            new PartitionValues(spec, java.util.Arrays.asList(null, 0)));
    assertThat(PartitionFilters.whereFor(table, partitions, 10))
        .hasValue(
            "(category = 'it''s' AND day = '2024-10-04') OR (category IS NULL AND day = '1970-01-01')");
    assertThat(PartitionFilters.whereFor(table, partitions, 1)).isEmpty();
    assertThat(
            dev.lakeops.expression.WhereParser.parse(
                PartitionFilters.whereFor(table, partitions, 10).orElseThrow()))
        .isNotNull();
  }

  @Test
  void transformedPartitionsPlanTheWholeTable() {
    Table table =
        new HadoopCatalog(new Configuration(), warehouse.toString())
            .createTable(
                TableIdentifier.of("db", "b"),
                SCHEMA,
                PartitionSpec.builderFor(SCHEMA).bucket("id", 4).build());
    Set<PartitionValues> partitions =
        Set.of(new PartitionValues(table.spec().specId(), List.of(1)));
    assertThat(PartitionFilters.whereFor(table, partitions, 10)).isEmpty();
  }

  @Test
  void aWriterCommitMadeWhileACompactionRanIsReportedAfterThatCompaction() {
    Table table =
        new HadoopCatalog(new Configuration(), warehouse.toString())
            .createTable(TableIdentifier.of("db", "w"), SCHEMA, PartitionSpec.unpartitioned());
    DataFile first = dataFile(table, "first");
    table.newAppend().appendFile(first).commit();
    long firstCommit = table.currentSnapshot().snapshotId();
    DataFile second = dataFile(table, "second");
    table.newAppend().appendFile(second).commit();
    long secondCommit = table.currentSnapshot().snapshotId();
    DataFile compacted = dataFile(table, "compacted");
    table.newRewrite().deleteFile(first).deleteFile(second).addFile(compacted).commit();
    table.newAppend().appendFile(dataFile(table, "third")).commit();
    long thirdCommit = table.currentSnapshot().snapshotId();

    WriteHistory history = new WriteHistory(Optional.empty());
    assertThat(history.read(table).commits())
        .extracting(SnapshotWrites::snapshotId)
        .containsExactly(thirdCommit);
    assertThat(history.unseenWriterCommits(table, 0, Set.of(firstCommit)))
        .extracting(SnapshotWrites::snapshotId)
        .containsExactly(thirdCommit, secondCommit);
    assertThat(history.unseenWriterCommits(table, 0, Set.of(thirdCommit))).isEmpty();
  }

  private static DataFile dataFile(Table table, String name) {
    return DataFiles.builder(table.spec())
        .withPath(table.location() + "/data/" + name + ".parquet")
        .withFormat(FileFormat.PARQUET)
        .withFileSizeInBytes(100)
        .withRecordCount(10)
        .build();
  }

  @Test
  void writeCommitsUseTheExistingEventModel() {
    TelemetryEvent event =
        WriteTelemetry.event(
            WriteTelemetry.tableName("hadoop.db.events"),
            new SnapshotWrites(42, NOW.toEpochMilli(), 6, 6000, 600, 6, 6000, 1, Set.of()));
    assertThat(event.engine()).isEqualTo("flink-sink");
    assertThat(event.table()).isEqualTo(TableName.of("hadoop", "db", "events"));
    assertThat(event.queryId()).isEqualTo("commit/42/data-files/6/delete-files/1");
    assertThat(WriteTelemetry.dataFiles(event)).isEqualTo(6);
    assertThat(event.occurredAt()).isEqualTo(NOW);
    assertThat(event.columns()).isEmpty();
    assertThat(event.scanVolume().bytes()).hasValue(6000);
    assertThat(event.scanVolume().rows()).hasValue(600);
    assertThat(WriteTelemetry.tableName("/data/warehouse/events"))
        .isEqualTo(TableName.of("default", "default", "/data/warehouse/events"));
    assertThat(WriteTelemetry.tableName("lake.sales.eu.orders"))
        .isEqualTo(TableName.of("lake", "sales.eu", "orders"));
  }

  @Test
  void writePatternIsCommitsPerMinuteAndFilesPerCommit() {
    WritePattern pattern = new WritePattern(Duration.ofMinutes(10), NOW.minusSeconds(120));
    pattern.add(
        new SnapshotWrites(1, NOW.minusSeconds(90).toEpochMilli(), 4, 0, 0, 4, 0, 0, Set.of()));
    pattern.add(
        new SnapshotWrites(2, NOW.minusSeconds(30).toEpochMilli(), 2, 0, 0, 2, 0, 0, Set.of()));
    assertThat(pattern.commitsPerMinute(NOW)).isEqualTo(1.0);
    assertThat(pattern.filesPerCommit(NOW)).isEqualTo(3.0);
    assertThat(pattern.filesPerCommit(NOW.plus(Duration.ofMinutes(20)))).isZero();
  }

  private static WriteSignals signals(SnapshotWrites... commits) {
    return new WriteSignals(List.of(commits), 10_000, 7_500);
  }

  private static SnapshotWrites commit(long id, int smallFiles, long smallBytes, int deleteFiles) {
    return new SnapshotWrites(
        id,
        NOW.toEpochMilli(),
        smallFiles,
        smallBytes,
        smallFiles * 10L,
        smallFiles,
        smallBytes,
        deleteFiles,
        Set.of());
  }
}
