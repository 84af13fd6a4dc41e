package dev.lakeops.rewrite.read;

import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.MessageType;

/**
 * The converter tree Parquet's {@code ColumnReadStoreImpl} asks for. Values are taken straight from
 * the column readers, so the converters never receive anything.
 */
final class NoOpConverters {
  private NoOpConverters() {}

  /** A root converter with one primitive child per column of the flat {@code schema}. */
  static GroupConverter forFlatSchema(MessageType schema) {
    PrimitiveConverter primitive = new PrimitiveConverter() {};
    int fields = schema.getFieldCount();
    return new GroupConverter() {
      @Override
      public Converter getConverter(int fieldIndex) {
        if (fieldIndex < 0 || fieldIndex >= fields) {
          throw new IndexOutOfBoundsException("No column " + fieldIndex + " in " + schema);
        }
        return primitive;
      }

      @Override
      public void start() {}

      @Override
      public void end() {}
    };
  }
}
