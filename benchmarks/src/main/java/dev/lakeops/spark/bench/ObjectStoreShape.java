package dev.lakeops.spark.bench;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The two tables the object-storage benchmark compacts: partitioned by day over four days, or not
 * partitioned at all. Both are written eight files per commit: two Spark tasks writing one file per
 * day each, or eight tasks writing one file each.
 */
enum ObjectStoreShape {
  PARTITIONED("partitioned", 4, 2),
  UNPARTITIONED("unpartitioned", 0, 8);

  /** The days the rows spread over, partitioned or not. */
  static final int DAYS = 4;

  private final String label;
  private final int partitions;
  private final int tasksPerCommit;

  ObjectStoreShape(String label, int partitions, int tasksPerCommit) {
    this.label = label;
    this.partitions = partitions;
    this.tasksPerCommit = tasksPerCommit;
  }

  /** A comma-separated list of shapes, in the order given. */
  static List<ObjectStoreShape> parseList(String text) {
    List<ObjectStoreShape> shapes =
        Arrays.stream(text.split(","))
            .map(String::trim)
            .filter(part -> !part.isEmpty())
            .map(ObjectStoreShape::parse)
            .toList();
    if (shapes.isEmpty()) {
      throw new IllegalArgumentException(
          "No table shape in -Dlakeops.benchmark.objectstore.shapes: use partitioned,"
              + " unpartitioned or both");
    }
    return shapes;
  }

  static ObjectStoreShape parse(String text) {
    for (ObjectStoreShape shape : values()) {
      if (shape.label.equalsIgnoreCase(text.trim())) {
        return shape;
      }
    }
    throw new IllegalArgumentException(
        "Unknown table shape '"
            + text
            + "' in -Dlakeops.benchmark.objectstore.shapes: use "
            + Arrays.stream(values())
                .map(ObjectStoreShape::label)
                .collect(Collectors.joining(", ")));
  }

  String label() {
    return label.toLowerCase(Locale.ROOT);
  }

  /** Partitions of the table, 0 when it is not partitioned. */
  int partitions() {
    return partitions;
  }

  int tasksPerCommit() {
    return tasksPerCommit;
  }

  int filesPerCommit() {
    return tasksPerCommit * Math.max(1, partitions);
  }
}
