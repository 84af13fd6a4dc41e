package dev.lakeops.spark.executors;

import static java.util.Objects.requireNonNull;

import java.io.Serial;
import java.io.Serializable;
import org.apache.iceberg.Table;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;

/**
 * The table of one compaction, shipped to the executors once as a Spark broadcast (Java-serialized
 * bytes of Iceberg's {@code SerializableTable}, whatever the session's serializer) instead of with
 * every task. Each task's payload names it with {@link Placeholder#TABLE}; the executor reads the
 * broadcast from its local block store.
 */
final class BroadcastTable implements Serializable {
  @Serial private static final long serialVersionUID = 1L;

  /** What a task payload holds where the table was. */
  enum Placeholder {
    TABLE
  }

  private final Broadcast<byte[]> bytes;

  private BroadcastTable(Broadcast<byte[]> bytes) {
    this.bytes = requireNonNull(bytes, "bytes is null");
  }

  /** Broadcasts {@code table}, which must already be serializable. */
  static BroadcastTable of(JavaSparkContext spark, Table table) {
    return new BroadcastTable(spark.broadcast(JavaSerialization.toBytes((Serializable) table)));
  }

  /** On an executor: the table, read from the broadcast. */
  Table table() {
    return JavaSerialization.fromBytes(bytes.value(), Table.class);
  }

  /** Bytes shipped once per executor. */
  long size() {
    return bytes.value().length;
  }

  /** Removes the broadcast from the driver and every executor. */
  void destroy() {
    bytes.destroy();
  }
}
