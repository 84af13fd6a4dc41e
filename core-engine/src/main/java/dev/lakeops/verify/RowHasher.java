package dev.lakeops.verify;

import static java.util.Objects.requireNonNull;

import com.google.common.hash.HashFunction;
import com.google.common.hash.Hasher;
import com.google.common.hash.Hashing;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * The 64-bit hash of one row's canonical form: murmur3-128 over each field's id and value, values
 * as their string form (bytes as bytes, lists element by element, maps as an order-independent sum
 * of entry hashes).
 */
public final class RowHasher {
  private static final HashFunction MURMUR3 = Hashing.murmur3_128();

  private final Types.StructType struct;

  public RowHasher(Types.StructType struct) {
    this.struct = requireNonNull(struct, "struct is null");
  }

  public long hash(Record row) {
    Hasher hasher = MURMUR3.newHasher();
    appendStruct(hasher, struct, row);
    return hasher.hash().asLong();
  }

  private static void appendStruct(Hasher hasher, Types.StructType struct, Record row) {
    List<Types.NestedField> fields = struct.fields();
    for (int index = 0; index < fields.size(); index++) {
      hasher.putInt(fields.get(index).fieldId());
      appendValue(hasher, fields.get(index).type(), row.get(index));
    }
  }

  private static void appendValue(Hasher hasher, Type type, Object value) {
    if (value == null) {
      hasher.putByte((byte) 0);
      return;
    }
    hasher.putByte((byte) 1);
    if (value instanceof String text) {
      hasher.putString(text, StandardCharsets.UTF_8);
    } else if (type instanceof Types.StructType nested) {
      appendStruct(hasher, nested, (Record) value);
    } else if (type instanceof Types.ListType list) {
      List<?> elements = (List<?>) value;
      hasher.putInt(elements.size());
      for (Object element : elements) {
        appendValue(hasher, list.elementType(), element);
      }
    } else if (type instanceof Types.MapType map) {
      Map<?, ?> entries = (Map<?, ?>) value;
      hasher.putInt(entries.size());
      long entriesHash = 0;
      for (Map.Entry<?, ?> entry : entries.entrySet()) {
        Hasher entryHasher = MURMUR3.newHasher();
        appendValue(entryHasher, map.keyType(), entry.getKey());
        appendValue(entryHasher, map.valueType(), entry.getValue());
        entriesHash += entryHasher.hash().asLong();
      }
      hasher.putLong(entriesHash);
    } else if (value instanceof ByteBuffer buffer) {
      hasher.putBytes(buffer.duplicate());
    } else if (value instanceof byte[] bytes) {
      hasher.putBytes(bytes);
    } else {
      hasher.putString(Objects.toString(value), StandardCharsets.UTF_8);
    }
  }
}
