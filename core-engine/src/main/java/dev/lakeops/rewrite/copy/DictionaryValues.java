package dev.lakeops.rewrite.copy;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import org.apache.parquet.bytes.BytesUtils;
import org.apache.parquet.schema.PrimitiveType;

/**
 * The entries of one PLAIN-encoded dictionary page, each kept as its own PLAIN bytes (for byte
 * arrays the 4-byte length prefix included), so that entries can be compared, concatenated into a
 * new dictionary, or written as PLAIN values without interpreting them.
 */
final class DictionaryValues {
  private final byte[] bytes;
  private final int[] offsets;

  private DictionaryValues(byte[] bytes, int[] offsets) {
    this.bytes = requireNonNull(bytes, "bytes is null");
    this.offsets = requireNonNull(offsets, "offsets is null");
  }

  static DictionaryValues decode(byte[] plain, int count, PrimitiveType type) throws IOException {
    int[] offsets = new int[count + 1];
    int position = 0;
    int fixedWidth = fixedWidth(type);
    for (int index = 0; index < count; index++) {
      offsets[index] = position;
      int width =
          fixedWidth >= 0 ? fixedWidth : 4 + BytesUtils.readIntLittleEndian(plain, position);
      position += width;
      if (width < 0 || position > plain.length) {
        throw new IOException(
            "Dictionary page of " + type + " is shorter than its " + count + " entries");
      }
    }
    offsets[count] = position;
    return new DictionaryValues(plain, offsets);
  }

  int size() {
    return offsets.length - 1;
  }

  int entryOffset(int index) {
    return offsets[index];
  }

  int entryLength(int index) {
    return offsets[index + 1] - offsets[index];
  }

  byte[] bytes() {
    return bytes;
  }

  private static int fixedWidth(PrimitiveType type) {
    return switch (type.getPrimitiveTypeName()) {
      case INT32, FLOAT -> 4;
      case INT64, DOUBLE -> 8;
      case INT96 -> 12;
      case FIXED_LEN_BYTE_ARRAY -> type.getTypeLength();
      case BINARY -> -1;
      case BOOLEAN ->
          throw new IllegalArgumentException("Boolean columns have no dictionary encoding");
    };
  }
}
