package dev.lakeops.spark.executors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakeops.compact.Strategy;
import dev.lakeops.distribute.GroupTask;
import dev.lakeops.plan.FileGroup;
import java.io.Serializable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SerializableTable;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A group task's payload leaves the table to the compaction's broadcast: it is a fraction of the
 * table's bytes, and reading it back puts the broadcast table in place.
 */
class TaskPayloadTest {
  @TempDir Path warehouse;

  @Test
  void aTaskCarriesItsGroupButNotTheTable() throws Exception {
    Table shipped = SerializableTable.copyOf(tableWithFiles(4));
    List<FileScanTask> tasks = new ArrayList<>();
    try (CloseableIterable<FileScanTask> planned = shipped.newScan().planFiles()) {
      planned.forEach(tasks::add);
    }
    GroupTask task =
        new GroupTask(
            shipped,
            shipped.currentSnapshot().snapshotId(),
            new FileGroup(0, 0, tasks.get(0).file().partition(), "", tasks),
            Strategy.BINPACK,
            "",
            List.of(),
            Map.of(),
            "run-1");

    byte[] payload = SparkGroupTaskSubmitter.payload(task);
    byte[] whole = JavaSerialization.toBytes(task);
    byte[] table = JavaSerialization.toBytes((Serializable) shipped);

    assertThat(payload.length).isLessThan(whole.length - table.length / 2);
    GroupTask read = JavaSerialization.fromBytes(payload, GroupTask.class, () -> shipped);
    assertThat(read.table()).isSameAs(shipped);
    assertThat(read.group().tasks())
        .extracting(scan -> scan.file().location())
        .containsExactlyElementsOf(tasks.stream().map(scan -> scan.file().location()).toList());
    assertThatThrownBy(() -> JavaSerialization.fromBytes(payload, GroupTask.class))
        .hasMessage("A task payload refers to a broadcast table it was not given");
  }

  private Table tableWithFiles(int files) {
    Schema schema =
        new Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.optional(2, "note", Types.StringType.get()));
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
    Table table =
        catalog.createTable(
            TableIdentifier.of("db", "payload"),
            schema,
            PartitionSpec.unpartitioned(),
            Map.of(TableProperties.FORMAT_VERSION, "2"));
    AppendFiles append = table.newAppend();
    for (int file = 0; file < files; file++) {
      append.appendFile(
          DataFiles.builder(table.spec())
              .withPath(table.location() + "/data/file-" + file + ".parquet")
              .withFormat(FileFormat.PARQUET)
              .withFileSizeInBytes(1024)
              .withRecordCount(10)
              .build());
    }
    append.commit();
    return table;
  }
}
