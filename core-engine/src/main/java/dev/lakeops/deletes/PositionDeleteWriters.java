package dev.lakeops.deletes;

import static java.util.Objects.requireNonNull;

import dev.lakeops.rewrite.OutputFileNames;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.iceberg.MetricsConfig;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.parquet.Parquet;

/**
 * Opens Parquet position-delete writers the way every LakeOps path writes them: the table's write
 * properties, the position-delete metrics config, one partition of one spec.
 */
public final class PositionDeleteWriters {
  private PositionDeleteWriters() {}

  public static PositionDeleteWriter<Record> open(
      Table table, OutputFileFactory outputs, PartitionSpec spec, StructLike partition) {
    requireNonNull(table, "table is null");
    requireNonNull(outputs, "outputs is null");
    requireNonNull(spec, "spec is null");
    try {
      return Parquet.writeDeletes(OutputFileNames.newOutputFile(outputs, spec, partition))
          .setAll(table.properties())
          .metricsConfig(MetricsConfig.forPositionDelete(table))
          .withSpec(spec)
          .withPartition(partition)
          .overwrite()
          .buildPositionWriter();
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot create a position delete file for table " + table.name(), e);
    }
  }
}
