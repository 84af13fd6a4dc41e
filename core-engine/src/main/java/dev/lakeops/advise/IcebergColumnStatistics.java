package dev.lakeops.advise;

import static java.util.Objects.requireNonNull;

import dev.lakeops.telemetry.advise.ColumnStatistics;
import dev.lakeops.telemetry.advise.ColumnStatisticsSource;
import dev.lakeops.telemetry.advise.ValueRange;
import dev.lakeops.telemetry.event.TableName;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.iceberg.BlobMetadata;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StatisticsFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.transforms.Transform;
import org.apache.iceberg.transforms.Transforms;
import org.apache.iceberg.types.Type;

/**
 * Column statistics of one Iceberg table, for the sort advisor's cardinality weighting.
 *
 * <p>The distinct count comes from the table's Puffin statistics when it has them: the {@code ndv}
 * property of an {@value #THETA_SKETCH_BLOB} blob over that one column, from the statistics file of
 * the current snapshot, else from the newest statistics file whose snapshot still exists. Otherwise
 * it is estimated from the data files' metrics ({@link #estimateDistinctCount}). The value range is
 * the smallest lower bound and the largest upper bound, when every file holding values of the
 * column has bounds.
 */
public final class IcebergColumnStatistics implements ColumnStatisticsSource {
  /** The Puffin blob type of Iceberg's NDV sketches. */
  public static final String THETA_SKETCH_BLOB = "apache-datasketches-theta-v1";

  /** The blob property holding the distinct count. */
  public static final String NDV_PROPERTY = "ndv";

  /**
   * Bounds that differ in at least this share of all bounds mark a column whose values rarely
   * repeat.
   */
  static final double UNIQUE_BOUNDS_SHARE = 0.9;

  private static final Set<Type.TypeID> INTEGRAL_TYPES =
      EnumSet.of(
          Type.TypeID.INTEGER,
          Type.TypeID.LONG,
          Type.TypeID.DATE,
          Type.TypeID.TIME,
          Type.TypeID.TIMESTAMP,
          Type.TypeID.TIMESTAMP_NANO);

  private final Table table;

  public IcebergColumnStatistics(Table table) {
    this.table = requireNonNull(table, "table is null");
  }

  /** Statistics of {@code columns} of this source's table; {@code tableName} only names it. */
  @Override
  public Map<String, ColumnStatistics> statistics(TableName tableName, Set<String> columns) {
    requireNonNull(columns, "columns is null");
    Map<Integer, Long> puffinCounts = puffinDistinctCounts(table);
    Map<String, ColumnStatistics> statistics = new LinkedHashMap<>();
    for (Map.Entry<String, ColumnBounds> entry : ColumnBounds.collect(table, columns).entrySet()) {
      ColumnBounds bounds = entry.getValue();
      Long puffin = puffinCounts.get(bounds.field().fieldId());
      OptionalLong distinct =
          puffin != null ? OptionalLong.of(puffin) : estimateDistinctCount(bounds);
      Optional<ValueRange> range =
          bounds
              .range()
              .map(
                  found ->
                      new ValueRange(
                          humanString(bounds.type(), found.lower()),
                          humanString(bounds.type(), found.upper())));
      statistics.put(entry.getKey(), new ColumnStatistics(distinct, range));
    }
    return statistics;
  }

  /**
   * Estimates the distinct count from file metrics, capped by the non-null values:
   *
   * <ul>
   *   <li>integral types (int, long, date, time, timestamp): the width of the value range, {@code
   *       upper - lower + 1}, but at least the distinct bounds seen;
   *   <li>other types whose file bounds almost never repeat (at least 90 % of the bounds differ):
   *       the non-null values, as such a column is close to unique;
   *   <li>otherwise the number of distinct bounds, a lower bound: a column with 10 values that all
   *       occur in every file shows only 2.
   * </ul>
   *
   * Empty when the table has no data files or no file has bounds for the column; 0 when every value
   * is null.
   */
  static OptionalLong estimateDistinctCount(ColumnBounds bounds) {
    if (bounds.files() == 0) {
      return OptionalLong.empty();
    }
    if (bounds.nonNullValues() == 0) {
      return OptionalLong.of(0);
    }
    if (bounds.distinctBoundCount() == 0) {
      return OptionalLong.empty();
    }
    long distinctBounds = bounds.distinctBoundCount();
    long estimate;
    Optional<ColumnBounds.BoundRange> range = bounds.range();
    if (INTEGRAL_TYPES.contains(bounds.type().typeId()) && range.isPresent()) {
      estimate = Math.max(distinctBounds, width(range.get()));
    } else if (distinctBounds >= UNIQUE_BOUNDS_SHARE * bounds.boundCount()
        && bounds.boundCount() >= 4) {
      estimate = bounds.nonNullValues();
    } else {
      estimate = distinctBounds;
    }
    return OptionalLong.of(Math.min(estimate, bounds.nonNullValues()));
  }

  private static long width(ColumnBounds.BoundRange range) {
    long lower = ((Number) range.lower()).longValue();
    long upper = ((Number) range.upper()).longValue();
    try {
      return Math.addExact(Math.subtractExact(upper, lower), 1);
    } catch (ArithmeticException overflow) {
      return Long.MAX_VALUE;
    }
  }

  /** NDV per field id from the best statistics file: the current snapshot's, else the newest. */
  static Map<Integer, Long> puffinDistinctCounts(Table table) {
    Snapshot current = table.currentSnapshot();
    Optional<StatisticsFile> chosen =
        table.statisticsFiles().stream()
            .filter(file -> table.snapshot(file.snapshotId()) != null)
            .max(
                Comparator.comparing(
                        (StatisticsFile file) ->
                            current != null && file.snapshotId() == current.snapshotId())
                    .thenComparingLong(
                        file -> table.snapshot(file.snapshotId()).timestampMillis()));
    Map<Integer, Long> counts = new HashMap<>();
    chosen.ifPresent(
        file -> {
          for (BlobMetadata blob : file.blobMetadata()) {
            String ndv = blob.properties() == null ? null : blob.properties().get(NDV_PROPERTY);
            if (THETA_SKETCH_BLOB.equals(blob.type()) && blob.fields().size() == 1 && ndv != null) {
              parseCount(ndv).ifPresent(count -> counts.put(blob.fields().get(0), count));
            }
          }
        });
    return counts;
  }

  private static Optional<Long> parseCount(String text) {
    try {
      long count = Long.parseLong(text.trim());
      return count >= 0 ? Optional.of(count) : Optional.empty();
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  @SuppressWarnings("unchecked")
  static String humanString(Type type, Object value) {
    return ((Transform<Object, Object>) (Transform<?, ?>) Transforms.identity())
        .toHumanString(type, value);
  }
}
