package dev.lakeops.rewrite.encode;

import org.apache.iceberg.types.Type;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.PageWriter;

/** Picks the {@link ColumnChunkEncoder} for a flat column, where there is one. */
public final class ColumnChunkEncoders {
  private ColumnChunkEncoders() {}

  /**
   * Whether columns of {@code type} have an encoder: ints, longs, floats, doubles, dates, times,
   * timestamps (microseconds), strings and binaries. Booleans, decimals, fixed, UUIDs and
   * nanosecond timestamps do not; parquet-java's column writers write them.
   */
  public static boolean supports(Type type) {
    return switch (type.typeId()) {
      case INTEGER, LONG, FLOAT, DOUBLE, DATE, TIME, TIMESTAMP, STRING, BINARY -> true;
      default -> false;
    };
  }

  /**
   * A new encoder for one chunk of {@code column}, whose Iceberg type is {@code type} ({@link
   * #supports}).
   */
  public static ColumnChunkEncoder forColumn(
      Type type,
      ColumnDescriptor column,
      PageWriter pageWriter,
      PageLimits limits,
      boolean dictionaryEnabled) {
    return switch (type.typeId()) {
      case INTEGER, LONG, FLOAT, DOUBLE, DATE, TIME, TIMESTAMP ->
          new FixedWidthChunkEncoder(column, pageWriter, limits, dictionaryEnabled);
      case STRING, BINARY -> new BinaryChunkEncoder(column, pageWriter, limits, dictionaryEnabled);
      default -> throw new IllegalArgumentException("No page encoder for " + type);
    };
  }
}
