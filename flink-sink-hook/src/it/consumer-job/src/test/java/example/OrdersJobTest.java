package example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lakeops.flink.LakeOpsCompaction;
import dev.lakeops.unit.ByteSize;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.flink.CatalogLoader;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.flink.sink.IcebergSink;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The job of docs/flink.md's example, run the way a user tries a job before deploying it: in a
 * local environment (a MiniCluster in this JVM), Iceberg's sink writing a Hadoop table, the LakeOps
 * hook attached. It must write every row and compact while it writes.
 */
class OrdersJobTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "category", Types.StringType.get()));
  private static final TableIdentifier ORDERS = TableIdentifier.of("sales", "orders");
  private static final long ROWS = 1_200;

  @TempDir Path warehouse;

  @Test
  void jobWritesEveryRowAndCompactsWhileItWrites() throws Exception {
    writeClassPath();
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
    catalog.createTable(ORDERS, SCHEMA, PartitionSpec.builderFor(SCHEMA).identity("category").build());

    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.enableCheckpointing(100);
    env.setParallelism(2);

    TableLoader loader =
        TableLoader.fromCatalog(
            CatalogLoader.hadoop("lake", new Configuration(), Map.of("warehouse", warehouse.toString())),
            ORDERS);

    DataStream<RowData> rows =
        env.fromSource(
            new DataGeneratorSource<>(
                OrdersJobTest::order, ROWS, RateLimiterStrategy.perCheckpoint(100),
                InternalTypeInfo.of(FlinkSchemaUtil.convert(SCHEMA))),
            WatermarkStrategy.noWatermarks(),
            "orders");
    DataStreamSink<RowData> sink = IcebergSink.forRowData(rows).tableLoader(loader).append();

    LakeOpsCompaction.forTable(loader)
        .smallFileThreshold(ByteSize.ofMegabytes(32))
        .minNewFiles(4)
        .minInterval(Duration.ofMillis(500))
        .memory(ByteSize.ofMegabytes(128))
        .rewriteOptions(Map.of("min-input-files", "2"))
        .build()
        .attachTo(sink);

    env.execute("orders to Iceberg");

    Table table = catalog.loadTable(ORDERS);
    long count = 0;
    long idSum = 0;
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      for (Record record : records) {
        count++;
        idSum += (Long) record.getField("id");
      }
    }
    assertEquals(ROWS, count, "rows in the table");
    assertEquals(ROWS * (ROWS - 1) / 2, idSum, "sum of the ids written");
    List<Snapshot> compactions = new ArrayList<>();
    for (Snapshot snapshot : table.snapshots()) {
      if (DataOperations.REPLACE.equals(snapshot.operation())
          && "compact".equals(snapshot.summary().get("lakeops.operation"))) {
        compactions.add(snapshot);
      }
    }
    assertTrue(!compactions.isEmpty(), "the hook compacted while the job wrote");
  }

  private static RowData order(Long index) {
    return GenericRowData.of(index, StringData.fromString(index % 2 == 0 ? "books" : "games"));
  }

  /** The jars the job runs with, for ConsumerProjectIT to compare the two declaration orders. */
  private static void writeClassPath() throws IOException {
    TreeSet<String> jars = new TreeSet<>();
    for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
      if (entry.endsWith(".jar")) {
        jars.add(Paths.get(entry).getFileName().toString());
      }
    }
    Files.write(Paths.get("target", "classpath.txt"), jars);
  }
}
