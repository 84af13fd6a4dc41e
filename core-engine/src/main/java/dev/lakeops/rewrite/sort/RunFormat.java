package dev.lakeops.rewrite.sort;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.BufferLayout;
import org.apache.arrow.vector.BufferLayout.BufferType;
import org.apache.arrow.vector.TypeLayout;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The layout of a run file: a sequence of batches, then an end marker. Each Arrow buffer of a batch
 * (validity, offsets, values, for every vector and its children in schema order, as Arrow's IPC
 * lists them) is compressed on its own, so each zstd frame holds one kind of value and its entropy
 * coder learns that column alone: hex or base64 strings shrink to the bits their alphabets need,
 * which a frame mixing every column cannot do. Offsets are stored as the lengths between them: one
 * length when every value has it (hex ids, say), one byte a value when none is longer than 255.
 * 64-bit values that move by little from row to row (a sorted timestamp) are stored as their
 * differences.
 *
 * <p>A batch is a header of little-endian ints, then the stored buffers one after another. The
 * header: the row count, the stored bytes that follow, each vector's value and null count, each
 * buffer's raw and stored length; a buffer other than offsets and 64-bit values whose stored length
 * equals its raw length holds its bytes as they are. The end marker is a header of zeros. A batch
 * is read with two system calls, its header and its buffers; batches are written in groups of at
 * least {@link #WRITE_BYTES}.
 */
final class RunFormat {
  /** How a buffer is stored. */
  enum BufferKind {
    /**
     * Validity bits: not stored at all (stored length 0) when the vector has no null, since Arrow
     * sets every bit itself when it loads such a vector; else as {@link #PLAIN}.
     */
    VALIDITY,
    /** Compressed with zstd's first fast level: numbers and validity bits gain little more. */
    PLAIN,
    /**
     * 64-bit values (longs, timestamps, doubles): a byte giving the {@link LongsForm}, then the
     * form's bytes, compressed or as they are as {@link #PLAIN} buffers are.
     */
    LONGS,
    /** 32-bit offsets, stored as the lengths between them, in an {@link OffsetsForm}. */
    OFFSETS,
    /**
     * The bytes of strings and binaries: a byte giving the {@link ValuesForm}, then the form's
     * bytes.
     */
    VALUES
  }

  /**
   * How a {@link BufferKind#VALUES} buffer is stored, when it is stored at all (a column stored
   * with a {@link OffsetsForm#DICTIONARY} stores none).
   */
  enum ValuesForm {
    /**
     * Compressed at zstd level 1, whose literals go through an entropy coder, which the fast levels
     * leave out; or as they are when that is no smaller (stored bytes one more than the raw ones).
     */
    COMPRESSED,
    /** In {@link PackedStrings}' layout: the shared prefix once, then the alphabet's bits. */
    PACKED
  }

  /**
   * How an {@link BufferKind#OFFSETS} buffer is stored: a byte giving the form's ordinal, then the
   * form's bytes. Forms other than {@link #SAME_LENGTH} are compressed as {@link BufferKind#PLAIN}
   * buffers are, or stored as they are when that is no smaller.
   */
  enum OffsetsForm {
    /** Every difference between neighbouring offsets, the first offset included, as 32-bit ints. */
    INT_DIFFERENCES,
    /** The first offset is 0 and every value is up to 255 bytes long: one byte a value. */
    BYTE_LENGTHS,
    /** The first offset is 0 and every value has the same length: that length, one int. */
    SAME_LENGTH,
    /**
     * The column's values are few distinct ones ({@link RunDictionary}): an int giving the raw
     * bytes of what follows, then, compressed as {@link BufferKind#VALUES} are (or as they are when
     * that is no smaller), the number of entries, each entry's length, the entries' bytes and one
     * id byte a row. The values buffer that follows is not stored (stored length 0): it is built
     * from the dictionary.
     */
    DICTIONARY
  }

  /**
   * How a {@link BufferKind#LONGS} buffer is stored. A sort's run holds its leading key column in
   * order (and the next key columns in order within runs of equal leading keys): a timestamp sorted
   * among millions of rows moves by little from row to row, so its differences take a few bits
   * where its values take five or six bytes, and the compressor cannot see that itself.
   */
  enum LongsForm {
    /** The values as they are, compressed as {@link BufferKind#PLAIN} buffers are. */
    VALUES(false, false, false),
    /**
     * Each value's difference from the one before (the first one's from 0), zigzag-encoded so that
     * small steps either way have small unsigned values, as 64-bit little-endian longs, compressed
     * as {@link BufferKind#PLAIN} buffers are.
     */
    ZIGZAG_DIFFERENCES(true, false, false),
    /** The values in {@link PackedLongs}' layout, not compressed. */
    PACKED_VALUES(false, true, false),
    /** The zigzag-encoded differences in {@link PackedLongs}' layout, not compressed. */
    PACKED_DIFFERENCES(true, true, false),
    /**
     * Doubles as {@link DecimalDoubles}' integers: a byte giving the decimal places, then the
     * integers in {@link PackedLongs}' layout, not compressed.
     */
    PACKED_DECIMALS(false, true, true);

    private final boolean differences;
    private final boolean packed;
    private final boolean decimals;

    LongsForm(boolean differences, boolean packed, boolean decimals) {
      this.differences = differences;
      this.packed = packed;
      this.decimals = decimals;
    }

    /** Whether the form holds zigzag-encoded differences rather than the values. */
    boolean differences() {
      return differences;
    }

    /** Whether the form is {@link PackedLongs}' layout rather than compressed longs. */
    boolean packed() {
      return packed;
    }

    /** Whether the form holds doubles as scaled integers ({@link DecimalDoubles}). */
    boolean decimals() {
      return decimals;
    }

    /** The compressed form of the same longs. */
    LongsForm compressed() {
      return differences ? ZIGZAG_DIFFERENCES : VALUES;
    }
  }

  /** zstd's first fast level, for {@link BufferKind#PLAIN} and {@link BufferKind#OFFSETS}. */
  static final int PLAIN_LEVEL = -1;

  /** zstd level 1, for {@link ValuesForm#COMPRESSED} values. */
  static final int VALUES_LEVEL = 1;

  /** Buffers shorter than this are stored as they are: a frame would not make them smaller. */
  static final int SMALLEST_COMPRESSED = 64;

  /**
   * Batches are collected until this many bytes, then handed to the run's file output, which writes
   * 1 MiB at a time ({@code UncachedFileOutput}).
   */
  static final int WRITE_BYTES = 256 * 1024;

  private static final VarHandle INTS =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private RunFormat() {}

  /** The kinds of {@code schema}'s buffers, in the order a batch stores them. */
  static BufferKind[] bufferKinds(Schema schema) {
    List<BufferKind> kinds = new ArrayList<>();
    for (Field field : schema.getFields()) {
      addKinds(field, kinds);
    }
    return kinds.toArray(BufferKind[]::new);
  }

  /**
   * For each of {@code schema}'s buffers, in the order a batch stores them, the index of its vector
   * among the vectors a batch stores (children included, in the same order).
   */
  static int[] bufferVectors(Schema schema) {
    List<Integer> vectors = new ArrayList<>();
    int vector = 0;
    for (Field field : schema.getFields()) {
      vector = addVectors(field, vector, vectors);
    }
    return vectors.stream().mapToInt(Integer::intValue).toArray();
  }

  /** How many vectors, children included, a batch of {@code schema} stores. */
  static int vectorCount(Schema schema) {
    int count = 0;
    for (Field field : schema.getFields()) {
      count += vectorCount(field);
    }
    return count;
  }

  /** The bytes of a batch header of {@code vectors} vectors and {@code buffers} buffers. */
  static int headerBytes(int vectors, int buffers) {
    return Integer.BYTES * (2 + 2 * vectors + 2 * buffers);
  }

  static void putInt(byte[] bytes, int offset, int value) {
    INTS.set(bytes, offset, value);
  }

  static int getInt(byte[] bytes, int offset) {
    return (int) INTS.get(bytes, offset);
  }

  static void putLong(byte[] bytes, int offset, long value) {
    LONGS.set(bytes, offset, value);
  }

  static long getLong(byte[] bytes, int offset) {
    return (long) LONGS.get(bytes, offset);
  }

  private static void addKinds(Field field, List<BufferKind> kinds) {
    boolean variableWidth =
        field.getType() instanceof ArrowType.Utf8 || field.getType() instanceof ArrowType.Binary;
    for (BufferLayout layout : TypeLayout.getTypeLayout(field.getType()).getBufferLayouts()) {
      BufferType type = layout.getType();
      if (type == BufferType.VALIDITY) {
        kinds.add(BufferKind.VALIDITY);
      } else if (type == BufferType.OFFSET && layout.getTypeBitWidth() == Integer.SIZE) {
        kinds.add(BufferKind.OFFSETS);
      } else if (type == BufferType.DATA && variableWidth) {
        kinds.add(BufferKind.VALUES);
      } else if (type == BufferType.DATA && layout.getTypeBitWidth() == Long.SIZE) {
        kinds.add(BufferKind.LONGS);
      } else {
        kinds.add(BufferKind.PLAIN);
      }
    }
    for (Field child : field.getChildren()) {
      addKinds(child, kinds);
    }
  }

  /** Adds the vector index of each of the field's buffers; returns the next vector's index. */
  private static int addVectors(Field field, int vector, List<Integer> vectors) {
    int buffers = TypeLayout.getTypeLayout(field.getType()).getBufferLayouts().size();
    for (int buffer = 0; buffer < buffers; buffer++) {
      vectors.add(vector);
    }
    int next = vector + 1;
    for (Field child : field.getChildren()) {
      next = addVectors(child, next, vectors);
    }
    return next;
  }

  private static int vectorCount(Field field) {
    int count = 1;
    for (Field child : field.getChildren()) {
      count += vectorCount(child);
    }
    return count;
  }
}
