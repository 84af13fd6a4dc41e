package dev.lakeops.rewrite.arrow;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Maps an Iceberg schema onto Arrow fields for the columnar rewrite path. The path handles flat
 * schemas of primitive columns; {@link #unsupportedColumn} names the first column it cannot take so
 * the caller can use the general path instead.
 */
public final class ArrowSchemas {
  private ArrowSchemas() {}

  public static Optional<String> unsupportedColumn(Schema schema) {
    for (Types.NestedField field : schema.columns()) {
      if (arrowType(field.type()).isEmpty()) {
        return Optional.of(field.name() + " (" + field.type() + ")");
      }
    }
    return Optional.empty();
  }

  public static org.apache.arrow.vector.types.pojo.Schema toArrow(Schema schema) {
    List<Field> fields = new ArrayList<>();
    for (Types.NestedField column : schema.columns()) {
      ArrowType type =
          arrowType(column.type())
              .orElseThrow(() -> new IllegalArgumentException("Unsupported column " + column));
      fields.add(new Field(column.name(), new FieldType(true, type, null), null));
    }
    return new org.apache.arrow.vector.types.pojo.Schema(fields);
  }

  private static Optional<ArrowType> arrowType(Type type) {
    return Optional.ofNullable(
        switch (type.typeId()) {
          case BOOLEAN -> ArrowType.Bool.INSTANCE;
          case INTEGER -> new ArrowType.Int(32, true);
          case LONG -> new ArrowType.Int(64, true);
          case FLOAT -> new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
          case DOUBLE -> new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
          case DATE -> new ArrowType.Date(DateUnit.DAY);
          case TIME -> new ArrowType.Time(TimeUnit.MICROSECOND, 64);
          case TIMESTAMP ->
              new ArrowType.Timestamp(
                  TimeUnit.MICROSECOND,
                  ((Types.TimestampType) type).shouldAdjustToUTC() ? "UTC" : null);
          case STRING -> ArrowType.Utf8.INSTANCE;
          case BINARY -> ArrowType.Binary.INSTANCE;
          case FIXED -> new ArrowType.FixedSizeBinary(((Types.FixedType) type).length());
          case UUID -> new ArrowType.FixedSizeBinary(16);
          case DECIMAL -> {
            Types.DecimalType decimal = (Types.DecimalType) type;
            yield new ArrowType.Decimal(decimal.precision(), decimal.scale(), 128);
          }
          default -> null;
        });
  }
}
