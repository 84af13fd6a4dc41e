package dev.lakeops.verify;

import com.google.common.hash.Hasher;
import com.google.common.hash.Hashing;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;

/**
 * An order-independent fingerprint of a table's live rows (deletes applied): the row count and the
 * wrapping sum of a 64-bit hash of every row's canonical form. Two tables with the same rows in any
 * order and file layout have equal fingerprints.
 */
public record RowFingerprint(long rowCount, long checksum) {

  public static RowFingerprint of(Table table) {
    return of(table, table.currentSnapshot() == null ? null : table.currentSnapshot().snapshotId());
  }

  public static RowFingerprint of(Table table, Long snapshotId) {
    if (snapshotId == null) {
      return new RowFingerprint(0, 0);
    }
    long count = 0;
    long checksum = 0;
    Types.StructType struct = table.schema().asStruct();
    try (CloseableIterable<Record> rows =
        IcebergGenerics.read(table).useSnapshot(snapshotId).build()) {
      for (Record row : rows) {
        Hasher hasher = Hashing.murmur3_128().newHasher();
        appendStruct(hasher, struct, row);
        checksum += hasher.hash().asLong();
        count++;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read table " + table.name(), e);
    }
    return new RowFingerprint(count, checksum);
  }

  private static void appendStruct(Hasher hasher, Types.StructType struct, Record row) {
    List<Types.NestedField> fields = struct.fields();
    for (int index = 0; index < fields.size(); index++) {
      hasher.putInt(fields.get(index).fieldId());
      appendValue(hasher, fields.get(index).type(), row.get(index));
    }
  }

  private static void appendValue(Hasher hasher, org.apache.iceberg.types.Type type, Object value) {
    if (value == null) {
      hasher.putByte((byte) 0);
      return;
    }
    hasher.putByte((byte) 1);
    if (type instanceof Types.StructType struct) {
      appendStruct(hasher, struct, (Record) value);
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
        Hasher entryHasher = Hashing.murmur3_128().newHasher();
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
