package dev.lakeops.deletes.equality;

import java.util.Collection;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Estimates of the heap that equality-delete keys take, from the delete files' record counts and
 * the key columns' widths (column sizes where the file's metrics have them).
 */
final class EqualityDeleteSizes {
  /**
   * Heap per distinct key in LakeOps' key table beyond the key bytes: map node, slot, key object,
   * array header.
   */
  static final long KEY_TABLE_OVERHEAD_BYTES = 96;

  /**
   * Heap per key in Iceberg's in-memory {@code StructLikeSet} beyond the values: wrapper, record,
   * map node.
   */
  private static final long STRUCT_SET_OVERHEAD_BYTES = 160;

  private static final long BOXED_VALUE_BYTES = 24;
  private static final long UNKNOWN_VARIABLE_WIDTH_BYTES = 32;

  private EqualityDeleteSizes() {}

  /**
   * Heap Iceberg's delete filter needs to hold the equality keys of one data file: the largest,
   * over {@code tasks}, of the keys of the equality delete files that apply to the task.
   */
  static long inMemoryFilterBytes(Schema tableSchema, Collection<FileScanTask> tasks) {
    long largest = 0;
    for (FileScanTask task : tasks) {
      long bytes = 0;
      for (DeleteFile delete : task.deletes()) {
        if (delete.content() == FileContent.EQUALITY_DELETES) {
          long perKey = STRUCT_SET_OVERHEAD_BYTES;
          for (int fieldId : delete.equalityFieldIds()) {
            perKey += BOXED_VALUE_BYTES + encodedWidth(tableSchema, delete, fieldId);
          }
          bytes += delete.recordCount() * perKey;
        }
      }
      largest = Math.max(largest, bytes);
    }
    return largest;
  }

  /**
   * Heap of LakeOps' key table holding every key of {@code deletes}, before duplicates collapse.
   */
  static long keyTableBytes(Schema tableSchema, Collection<DeleteFile> deletes) {
    long bytes = 0;
    for (DeleteFile delete : deletes) {
      bytes +=
          delete.recordCount() * (KEY_TABLE_OVERHEAD_BYTES + encodedKeyWidth(tableSchema, delete));
    }
    return bytes;
  }

  static long encodedKeyWidth(Schema tableSchema, DeleteFile delete) {
    long width = 0;
    for (int fieldId : delete.equalityFieldIds()) {
      width += encodedWidth(tableSchema, delete, fieldId);
    }
    return width;
  }

  private static long encodedWidth(Schema tableSchema, DeleteFile delete, int fieldId) {
    Types.NestedField field = tableSchema.findField(fieldId);
    Type.TypeID type = field == null ? Type.TypeID.STRING : field.type().typeId();
    return 1
        + switch (type) {
          case BOOLEAN -> 0;
          case INTEGER, DATE, FLOAT -> 4;
          case LONG, TIME, TIMESTAMP, TIMESTAMP_NANO, DOUBLE -> 8;
          case UUID -> 16;
          case DECIMAL -> 4 + 4 + 16;
          default -> 4 + averageColumnBytes(delete, fieldId);
        };
  }

  private static long averageColumnBytes(DeleteFile delete, int fieldId) {
    if (delete.columnSizes() == null || delete.recordCount() <= 0) {
      return UNKNOWN_VARIABLE_WIDTH_BYTES;
    }
    Long size = delete.columnSizes().get(fieldId);
    // compressed on disk: assume twice the stored size, never less than 8 bytes a value
    return size == null
        ? UNKNOWN_VARIABLE_WIDTH_BYTES
        : Math.max(8, 2 * size / delete.recordCount());
  }
}
