package dev.lakeops.rewrite.sort;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.util.ByteFunctionHelpers;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The sort key column: batches carry each row's normalized key as a trailing binary column, so
 * sorted runs spilled to disk keep their keys and the merge compares bytes only. The Parquet writer
 * ignores the trailing column.
 */
final class SortKeys {
  static final String KEY_COLUMN = "_lakeops_sort_key";

  /**
   * Leading key bytes kept as unsigned longs beside the keys, in 8-byte words: comparing them
   * settles most comparisons without touching the key bytes (zero-padded past a key's end, so equal
   * prefixes still need the full comparison).
   */
  static final int PREFIX_WORDS = 2;

  /** Per key: the prefix words, then the key's length in bytes. */
  static final int PREFIX_SLOTS = PREFIX_WORDS + 1;

  /** What {@link #comparePrefixes} returns when only the key bytes can tell. */
  static final int UNDECIDED = Integer.MIN_VALUE;

  private static final int PREFIX_BYTES = PREFIX_WORDS * Long.BYTES;

  private SortKeys() {}

  /** {@code schema} with the key column appended. */
  static Schema withKeyColumn(Schema schema) {
    List<Field> fields = new ArrayList<>(schema.getFields());
    fields.add(new Field(KEY_COLUMN, new FieldType(false, ArrowType.Binary.INSTANCE, null), null));
    return new Schema(fields);
  }

  static VarBinaryVector keyVector(VectorSchemaRoot batch) {
    return (VarBinaryVector) batch.getVector(batch.getFieldVectors().size() - 1);
  }

  /**
   * Compares two keys by their prefix slots: the words, then, when both keys fit the words (so
   * equal words leave the shorter key a prefix of the longer, zero-padded), their lengths.
   */
  static int comparePrefixes(long[] left, int leftOffset, long[] right, int rightOffset) {
    for (int word = 0; word < PREFIX_WORDS; word++) {
      int byWord = Long.compareUnsigned(left[leftOffset + word], right[rightOffset + word]);
      if (byWord != 0) {
        return byWord;
      }
    }
    long leftLength = left[leftOffset + PREFIX_WORDS];
    long rightLength = right[rightOffset + PREFIX_WORDS];
    if (leftLength <= PREFIX_BYTES && rightLength <= PREFIX_BYTES) {
      return Long.compare(leftLength, rightLength);
    }
    return UNDECIDED;
  }

  /**
   * Puts the prefix slots of {@code row}'s key into {@code prefix[offset, offset + PREFIX_SLOTS)}.
   */
  static void prefix(VarBinaryVector keys, int row, long[] prefix, int offset) {
    prefix(
        keys.getOffsetBuffer().memoryAddress(),
        keys.getDataBuffer().memoryAddress(),
        row,
        prefix,
        offset);
  }

  /**
   * Puts the prefix slots of {@code row}'s key into {@code prefix[offset, offset + PREFIX_SLOTS)},
   * reading the key vector's offset and data buffers at the given addresses.
   */
  static void prefix(long offsetsAddress, long dataAddress, int row, long[] prefix, int offset) {
    long rowOffset = offsetsAddress + (long) row * BaseVariableWidthVector.OFFSET_WIDTH;
    long start = MemoryUtil.getInt(rowOffset);
    long end = MemoryUtil.getInt(rowOffset + BaseVariableWidthVector.OFFSET_WIDTH);
    long position = start;
    for (int word = 0; word < PREFIX_WORDS; word++) {
      long value = 0;
      if (position + Long.BYTES <= end) {
        value = Long.reverseBytes(MemoryUtil.getLong(dataAddress + position));
        position += Long.BYTES;
      } else {
        for (int index = 0; index < Long.BYTES; index++) {
          value =
              (value << 8)
                  | (position < end ? MemoryUtil.getByte(dataAddress + position++) & 0xFF : 0);
        }
      }
      prefix[offset + word] = value;
    }
    prefix[offset + PREFIX_WORDS] = end - start;
  }

  /** Puts the prefix slots of {@code key} into {@code prefix[offset, offset + PREFIX_SLOTS)}. */
  static void prefix(KeyBytes key, long[] prefix, int offset) {
    int length = key.length();
    for (int word = 0; word < PREFIX_WORDS; word++) {
      // the key's array is never shorter than the prefix; bytes past the key are masked off
      int held = Math.min(Math.max(length - word * Long.BYTES, 0), Long.BYTES);
      long value =
          held == 0
              ? 0
              : key.bigEndianLongAt(word * Long.BYTES) & (-1L << (Long.SIZE - held * Byte.SIZE));
      prefix[offset + word] = value;
    }
    prefix[offset + PREFIX_WORDS] = length;
  }

  /**
   * Compares two rows' keys, each row's prefix slots at {@code row * PREFIX_SLOTS} of its prefix
   * array: by the prefixes, and by the key bytes only when the prefixes cannot tell.
   */
  static int compareRows(
      long[] leftPrefixes,
      VarBinaryVector leftKeys,
      int leftRow,
      long[] rightPrefixes,
      VarBinaryVector rightKeys,
      int rightRow) {
    int byPrefix =
        comparePrefixes(
            leftPrefixes, leftRow * PREFIX_SLOTS, rightPrefixes, rightRow * PREFIX_SLOTS);
    return byPrefix != UNDECIDED ? byPrefix : compare(leftKeys, leftRow, rightKeys, rightRow);
  }

  /**
   * Compares the key of {@code leftRow} in {@code left} with that of {@code rightRow} in {@code
   * right}.
   */
  static int compare(VarBinaryVector left, int leftRow, VarBinaryVector right, int rightRow) {
    ArrowBuf leftOffsets = left.getOffsetBuffer();
    ArrowBuf rightOffsets = right.getOffsetBuffer();
    long leftStart = leftOffsets.getInt((long) leftRow * BaseVariableWidthVector.OFFSET_WIDTH);
    long leftEnd = leftOffsets.getInt((long) (leftRow + 1) * BaseVariableWidthVector.OFFSET_WIDTH);
    long rightStart = rightOffsets.getInt((long) rightRow * BaseVariableWidthVector.OFFSET_WIDTH);
    long rightEnd =
        rightOffsets.getInt((long) (rightRow + 1) * BaseVariableWidthVector.OFFSET_WIDTH);
    return ByteFunctionHelpers.compare(
        left.getDataBuffer(), leftStart, leftEnd, right.getDataBuffer(), rightStart, rightEnd);
  }
}
