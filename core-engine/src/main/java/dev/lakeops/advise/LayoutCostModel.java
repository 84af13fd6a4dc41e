package dev.lakeops.advise;

import static java.util.Objects.requireNonNull;

import dev.lakeops.telemetry.advise.LayoutKind;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.expressions.InclusiveMetricsEvaluator;
import org.apache.iceberg.types.Comparators;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Types;

/**
 * Estimates what share of a table's bytes a filter reads once the table is laid out by a {@link
 * LayoutCandidate}, from a {@link ColumnSample}: in each partition the sampled rows are ordered as
 * the layout would order them (a sort by the columns, nulls first; or a Z-order of the columns'
 * value ranks, 16 bits per column) and cut into as many equal units as the partition will have row
 * groups ({@code partition bytes / unit bytes}, at least one). Each unit's lower and upper bounds
 * and null counts become column metrics, and Iceberg's own {@link InclusiveMetricsEvaluator} says
 * whether a filter may match it: the same test readers apply to row-group statistics. A filter
 * reads the share of units it may match, weighted by partition bytes.
 */
final class LayoutCostModel {
  private static final int ZORDER_BITS_PER_COLUMN = 16;

  private final Schema schema;
  private final ColumnSample sample;
  private final long unitBytes;
  private final Map<LayoutCandidate, List<PartitionUnits>> units = new HashMap<>();

  LayoutCostModel(Schema schema, ColumnSample sample, long unitBytes) {
    this.schema = requireNonNull(schema, "schema is null");
    this.sample = requireNonNull(sample, "sample is null");
    if (unitBytes <= 0) {
      throw new IllegalArgumentException("unitBytes must be positive: " + unitBytes);
    }
    this.unitBytes = unitBytes;
  }

  /** The mean share of the table's bytes the filters read under {@code candidate}, 0 to 1. */
  double shareRead(LayoutCandidate candidate, List<WorkloadQuery> workload) {
    requireNonNull(candidate, "candidate is null");
    if (workload.isEmpty()) {
      return 1.0;
    }
    List<PartitionUnits> partitions = units.computeIfAbsent(candidate, this::layOut);
    long totalBytes = partitions.stream().mapToLong(PartitionUnits::bytes).sum();
    if (totalBytes == 0) {
      return 1.0;
    }
    double sum = 0;
    for (WorkloadQuery query : workload) {
      InclusiveMetricsEvaluator evaluator =
          new InclusiveMetricsEvaluator(schema, query.filter(), false);
      double bytesRead = 0;
      for (PartitionUnits partition : partitions) {
        long matched = partition.units().stream().filter(evaluator::eval).count();
        bytesRead += partition.bytes() * (double) matched / partition.units().size();
      }
      sum += bytesRead / totalBytes;
    }
    return sum / workload.size();
  }

  private record PartitionUnits(long bytes, List<DataFile> units) {}

  private List<PartitionUnits> layOut(LayoutCandidate candidate) {
    int[] positions = candidate.columns().stream().mapToInt(this::position).toArray();
    List<PartitionUnits> result = new ArrayList<>();
    for (ColumnSample.PartitionSample partition : sample.partitions()) {
      if (partition.rows().isEmpty()) {
        continue;
      }
      List<Object[]> rows = new ArrayList<>(partition.rows());
      if (candidate.layout() == LayoutKind.ZORDER) {
        rows = zordered(rows, positions);
      } else {
        rows.sort(sortComparator(positions));
      }
      int unitCount =
          (int) Math.max(1, Math.min(rows.size(), (partition.bytes() + unitBytes - 1) / unitBytes));
      List<DataFile> partitionUnits = new ArrayList<>();
      for (int unit = 0; unit < unitCount; unit++) {
        int from = (int) ((long) rows.size() * unit / unitCount);
        int to = (int) ((long) rows.size() * (unit + 1) / unitCount);
        partitionUnits.add(unitFile(rows.subList(from, to), unit));
      }
      result.add(new PartitionUnits(partition.bytes(), partitionUnits));
    }
    return result;
  }

  private int position(String column) {
    List<Types.NestedField> fields = sample.fields();
    for (int index = 0; index < fields.size(); index++) {
      if (fields.get(index).name().equalsIgnoreCase(column)) {
        return index;
      }
    }
    throw new IllegalArgumentException("Column " + column + " was not sampled");
  }

  private Comparator<Object[]> sortComparator(int[] positions) {
    Comparator<Object[]> comparator = (left, right) -> 0;
    for (int position : positions) {
      Comparator<Object> values = Comparator.nullsFirst(comparatorOf(position));
      comparator = comparator.thenComparing(row -> row[position], values);
    }
    return comparator;
  }

  @SuppressWarnings("unchecked")
  private Comparator<Object> comparatorOf(int position) {
    return (Comparator<Object>)
        (Comparator<?>) Comparators.forType(sample.fields().get(position).type().asPrimitiveType());
  }

  /** Rows ordered by interleaving the bits of each column's value rank (nulls rank first). */
  private List<Object[]> zordered(List<Object[]> rows, int[] positions) {
    long[][] ranks = new long[positions.length][];
    for (int column = 0; column < positions.length; column++) {
      ranks[column] = scaledRanks(rows, positions[column]);
    }
    Integer[] order = new Integer[rows.size()];
    long[] keys = new long[rows.size()];
    for (int row = 0; row < rows.size(); row++) {
      order[row] = row;
      long key = 0;
      for (int bit = ZORDER_BITS_PER_COLUMN - 1; bit >= 0; bit--) {
        for (long[] columnRanks : ranks) {
          key = (key << 1) | ((columnRanks[row] >>> bit) & 1);
        }
      }
      keys[row] = key;
    }
    Arrays.sort(order, Comparator.comparingLong(row -> keys[row]));
    List<Object[]> ordered = new ArrayList<>(rows.size());
    for (Integer row : order) {
      ordered.add(rows.get(row));
    }
    return ordered;
  }

  private long[] scaledRanks(List<Object[]> rows, int position) {
    Integer[] order = new Integer[rows.size()];
    for (int row = 0; row < order.length; row++) {
      order[row] = row;
    }
    Comparator<Object> values = Comparator.nullsFirst(comparatorOf(position));
    Arrays.sort(
        order,
        (left, right) -> values.compare(rows.get(left)[position], rows.get(right)[position]));
    long[] ranks = new long[rows.size()];
    long scale = 1L << ZORDER_BITS_PER_COLUMN;
    for (int rank = 0; rank < order.length; rank++) {
      ranks[order[rank]] = rank * scale / Math.max(1, order.length);
    }
    return ranks;
  }

  private DataFile unitFile(List<Object[]> rows, int unit) {
    Map<Integer, Long> valueCounts = new HashMap<>();
    Map<Integer, Long> nullCounts = new HashMap<>();
    Map<Integer, ByteBuffer> lowerBounds = new HashMap<>();
    Map<Integer, ByteBuffer> upperBounds = new HashMap<>();
    for (int position = 0; position < sample.fields().size(); position++) {
      Types.NestedField field = sample.fields().get(position);
      Comparator<Object> comparator = comparatorOf(position);
      Object lower = null;
      Object upper = null;
      long nulls = 0;
      for (Object[] row : rows) {
        Object value = row[position];
        if (value == null) {
          nulls++;
        } else {
          lower = lower == null || comparator.compare(value, lower) < 0 ? value : lower;
          upper = upper == null || comparator.compare(value, upper) > 0 ? value : upper;
        }
      }
      valueCounts.put(field.fieldId(), (long) rows.size());
      nullCounts.put(field.fieldId(), nulls);
      if (lower != null) {
        lowerBounds.put(field.fieldId(), Conversions.toByteBuffer(field.type(), lower));
        upperBounds.put(field.fieldId(), Conversions.toByteBuffer(field.type(), upper));
      }
    }
    Metrics metrics =
        new Metrics(
            (long) rows.size(), null, valueCounts, nullCounts, null, lowerBounds, upperBounds);
    return DataFiles.builder(PartitionSpec.unpartitioned())
        .withPath("layout-unit-" + unit + ".parquet")
        .withFormat(FileFormat.PARQUET)
        .withFileSizeInBytes(1)
        .withMetrics(metrics)
        .build();
  }
}
