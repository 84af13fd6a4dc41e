package dev.lakeops.rewrite.read;

import java.util.Optional;
import org.apache.iceberg.types.Type;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.DateLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.IntLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimestampLogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * How {@link PageColumnDecoder} turns a Parquet physical value into an Arrow cell: the width of the
 * value in the page, the width of the Arrow cell, and the conversion between them (Iceberg's int to
 * long and float to double promotions).
 */
enum PageValueKind {
  INT32(4, 4),
  INT32_AS_INT64(4, 8),
  INT64(8, 8),
  FLOAT(4, 4),
  FLOAT_AS_DOUBLE(4, 8),
  DOUBLE(8, 8),
  BINARY(0, 0);

  private final int pageWidth;
  private final int cellWidth;

  PageValueKind(int pageWidth, int cellWidth) {
    this.pageWidth = pageWidth;
    this.cellWidth = cellWidth;
  }

  int pageWidth() {
    return pageWidth;
  }

  int cellWidth() {
    return cellWidth;
  }

  /** Whether page values are copied to cells byte for byte. */
  boolean copiesBytes() {
    return this == INT32 || this == INT64 || this == FLOAT || this == DOUBLE;
  }

  /**
   * The kind for an Iceberg column stored as {@code fileType}; empty when only Parquet's column
   * reader decodes it (booleans, decimals, fixed-length binary, millisecond times and timestamps).
   */
  static Optional<PageValueKind> forColumn(Type type, PrimitiveType fileType) {
    PrimitiveTypeName physical = fileType.getPrimitiveTypeName();
    LogicalTypeAnnotation logical = fileType.getLogicalTypeAnnotation();
    return Optional.ofNullable(
        switch (type.typeId()) {
          case INTEGER ->
              physical == PrimitiveTypeName.INT32 && signedInteger(logical) ? INT32 : null;
          case LONG ->
              !signedInteger(logical)
                  ? null
                  : switch (physical) {
                    case INT32 -> INT32_AS_INT64;
                    case INT64 -> INT64;
                    default -> null;
                  };
          case FLOAT -> physical == PrimitiveTypeName.FLOAT ? FLOAT : null;
          case DOUBLE ->
              switch (physical) {
                case FLOAT -> FLOAT_AS_DOUBLE;
                case DOUBLE -> DOUBLE;
                default -> null;
              };
          case DATE ->
              physical == PrimitiveTypeName.INT32 && logical instanceof DateLogicalTypeAnnotation
                  ? INT32
                  : null;
          case TIME -> time(physical, logical);
          case TIMESTAMP -> timestamp(physical, logical);
          case STRING, BINARY -> physical == PrimitiveTypeName.BINARY ? BINARY : null;
          default -> null;
        });
  }

  private static PageValueKind time(PrimitiveTypeName physical, LogicalTypeAnnotation logical) {
    if (!(logical instanceof TimeLogicalTypeAnnotation time)) {
      return null;
    }
    return physical == PrimitiveTypeName.INT64 && time.getUnit() == TimeUnit.MICROS ? INT64 : null;
  }

  private static PageValueKind timestamp(
      PrimitiveTypeName physical, LogicalTypeAnnotation logical) {
    if (physical != PrimitiveTypeName.INT64
        || !(logical instanceof TimestampLogicalTypeAnnotation timestamp)) {
      return null;
    }
    return timestamp.getUnit() == TimeUnit.MICROS ? INT64 : null;
  }

  private static boolean signedInteger(LogicalTypeAnnotation logical) {
    return logical == null
        || (logical instanceof IntLogicalTypeAnnotation integer && integer.isSigned());
  }
}
