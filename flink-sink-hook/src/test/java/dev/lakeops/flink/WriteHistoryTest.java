package dev.lakeops.flink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.commit.RewriteCommitter;
import dev.lakeops.compact.CompactionListener;
import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.lock.LockOptions;
import dev.lakeops.plan.RewritePlan;
import dev.lakeops.verify.RowFingerprint;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.parquet.Parquet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every writer commit counts toward {@code minNewFiles} exactly once, including commits that land
 * while a compaction runs (after its plan, before its {@code replace} snapshot).
 */
class WriteHistoryTest {
  @TempDir Path warehouse;
  private Table table;
  private long nextId;
  private int nextTask;

  @BeforeEach
  void createTable() {
    table =
        new HadoopCatalog(new Configuration(), warehouse.toString())
            .createTable(
                TestJobs.IDENTIFIER,
                TestJobs.SCHEMA,
                PartitionSpec.builderFor(TestJobs.SCHEMA).identity("category").build(),
                Map.of(TableProperties.FORMAT_VERSION, "2"));
  }

  @Test
  void commitsThatLandWhileACompactionRunsCountTowardTheNextOne() {
    WriteHistory history = new WriteHistory(Optional.empty());
    for (int commit = 0; commit < 3; commit++) {
      commitSmallFiles(2);
    }
    assertThat(history.read(table).newSmallFiles()).isEqualTo(6);

    // the sink commits twice (4 small files) after the compaction planned, before it commits
    List<Long> concurrentCommits = new ArrayList<>();
    CompactionListener sinkCommitsMeanwhile =
        new CompactionListener() {
          @Override
          public void planned(RewritePlan plan) {
            for (int commit = 0; commit < 2; commit++) {
              commitSmallFiles(2);
              concurrentCommits.add(table.currentSnapshot().snapshotId());
            }
          }
        };
    compact(sinkCommitsMeanwhile);
    assertThat(table.currentSnapshot().operation()).isEqualTo(DataOperations.REPLACE);
    assertThat(table.currentSnapshot().summary())
        .containsKey(RewriteCommitter.STARTING_SNAPSHOT_PROPERTY);

    WriteSignals afterCompaction = history.read(table);
    assertThat(afterCompaction.commits())
        .extracting(SnapshotWrites::snapshotId)
        .containsExactlyInAnyOrderElementsOf(concurrentCommits);
    assertThat(afterCompaction.newSmallFiles()).isEqualTo(4);

    commitSmallFiles(2);
    assertThat(history.read(table).newSmallFiles()).isEqualTo(6);

    compact(CompactionListener.NONE);
    assertThat(history.read(table).commits()).isEmpty();
    assertThat(RowFingerprint.of(table).rowCount()).isEqualTo(nextId);
  }

  @Test
  void aReplaceWithoutDataFilesIsNotACompactionAndAnotherEnginesCompactionCoversAllBeforeIt() {
    WriteHistory history = new WriteHistory(Optional.empty());
    commitSmallFiles(2);
    table.rewriteManifests().rewriteIf(manifest -> true).commit();
    assertThat(table.currentSnapshot().operation()).isEqualTo(DataOperations.REPLACE);
    commitSmallFiles(2);
    assertThat(history.read(table).newSmallFiles())
        .as("a manifest rewrite compacts no data")
        .isEqualTo(4);

    // another engine's compaction records no starting snapshot: it covers every commit before it
    List<DataFile> live = new ArrayList<>();
    table.newScan().planFiles().forEach(task -> live.add(task.file()));
    DataFile merged = write("a", 4);
    org.apache.iceberg.RewriteFiles rewrite = table.newRewrite();
    live.stream()
        .filter(file -> "a".equals(file.partition().get(0, String.class)))
        .forEach(rewrite::deleteFile);
    rewrite.addFile(merged).commit();
    Snapshot foreign = table.currentSnapshot();
    assertThat(foreign.summary()).doesNotContainKey(RewriteCommitter.STARTING_SNAPSHOT_PROPERTY);
    assertThat(history.read(table).commits()).isEmpty();
    commitSmallFiles(1);
    assertThat(history.read(table).newSmallFiles()).isEqualTo(1);
  }

  private void compact(CompactionListener listener) {
    new TableCompactor(listener, LockOptions.defaults())
        .compact(
            table, CompactionRequest.builder().options(Map.of("min-input-files", "2")).build());
    table.refresh();
  }

  /** One writer commit of {@code files} small files, alternating partitions. */
  private void commitSmallFiles(int files) {
    org.apache.iceberg.AppendFiles append = table.newAppend();
    for (int file = 0; file < files; file++) {
      append.appendFile(write(file % 2 == 0 ? "a" : "b", 10));
    }
    append.commit();
  }

  private DataFile write(String category, int rows) {
    PartitionKey partition = new PartitionKey(table.spec(), table.schema());
    GenericRecord template = GenericRecord.create(table.schema());
    template.setField("category", category);
    partition.partition(template);
    OutputFileFactory files =
        OutputFileFactory.builderFor(table, 1, nextTask++).format(FileFormat.PARQUET).build();
    try (DataWriter<Record> writer =
        Parquet.writeData(files.newOutputFile(table.spec(), partition))
            .forTable(table)
            .withSpec(table.spec())
            .withPartition(partition)
            .createWriterFunc(GenericParquetWriter::create)
            .overwrite()
            .build()) {
      for (int row = 0; row < rows; row++) {
        GenericRecord record = GenericRecord.create(table.schema());
        record.setField("id", nextId);
        record.setField("category", category);
        record.setField("payload", "payload-" + nextId);
        nextId++;
        writer.write(record);
      }
      writer.close();
      return writer.toDataFile();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
