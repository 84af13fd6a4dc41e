package dev.lakeops.flink;

import static java.util.Objects.requireNonNull;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.StructLike;

/**
 * One partition a data file landed in: its spec and its partition tuple, copied out of Iceberg's
 * reused structs into plain comparable values (strings, numbers, byte buffers, nulls).
 */
record PartitionValues(int specId, List<Object> values) {
  PartitionValues {
    values =
        Collections.unmodifiableList(new ArrayList<>(requireNonNull(values, "values is null")));
  }

  static PartitionValues of(PartitionSpec spec, StructLike partition) {
    List<Object> values = new ArrayList<>();
    Class<?>[] classes = spec.javaClasses();
    for (int index = 0; index < classes.length; index++) {
      Object value = partition.get(index, classes[index]);
      if (value instanceof CharSequence text) {
        value = text.toString();
      } else if (value instanceof ByteBuffer buffer) {
        value = buffer.duplicate();
      }
      values.add(value);
    }
    return new PartitionValues(spec.specId(), values);
  }
}
