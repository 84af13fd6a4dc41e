package dev.lakeops.rewrite.sort;

import static java.util.Objects.requireNonNull;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import dev.lakeops.io.UncachedFileOutput;
import dev.lakeops.rewrite.sort.RunFormat.BufferKind;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Writes batches of one schema to a run file in {@link RunFormat}: every buffer compressed on its
 * own, batches collected in a heap array and handed to the file {@link RunFormat#WRITE_BYTES} or
 * more at a time (written past the page cache where the file system allows it). Arrow buffers are
 * copied into a heap array before they are compressed: a view of their memory as a {@code
 * ByteBuffer} needs {@code --add-opens=java.base/java.nio}, which a stock Trino server does not
 * have.
 */
final class RunFileWriter implements AutoCloseable {
  /** Batches from one probe of a buffer of 64-bit values, or of string bytes, to the next. */
  static final int PROBE_INTERVAL = 16;

  /**
   * Packed string bytes win a probe while they take at most this many 32nds more than zstd's frame:
   * packing costs a tenth of its time on both sides, and a byte more spilled (written and read
   * once) costs far less than the zstd time it saves. URLs of a few paths and a hex id: 30 % of
   * their bytes packed against 23 % compressed; the 2 GB wide-row sort spills 0.96 times its input
   * bytes, against 0.92 at a margin of 1/32.
   */
  private static final int PACKED_VALUES_MARGIN_32NDS = 10;

  private final UncachedFileOutput file;
  private final BufferKind[] kinds;
  private final int headerBytes;
  private final int vectorCount;
  private final ZstdCompressCtx plainCompressor = new ZstdCompressCtx();
  private final ZstdCompressCtx valuesCompressor = new ZstdCompressCtx();
  private final RunDictionary dictionary = new RunDictionary();
  private final PackedStrings packedStrings = new PackedStrings();

  /** Per buffer of 64-bit values or string bytes: batches until its next probe of its forms. */
  private final int[] probes;

  /** Per buffer of 64-bit values: the form that stored them smallest at its last probe. */
  private final RunFormat.LongsForm[] longsForms;

  /** Per buffer of string bytes: the form that stored them smallest at its last probe. */
  private final RunFormat.ValuesForm[] valuesForms;

  private byte[] raw = new byte[0];
  private byte[] out = new byte[RunFormat.WRITE_BYTES];
  private int outLength;
  private int nodeSlot;
  private int bufferSlot;
  private int bufferIndex;
  private long storedBytes;
  private boolean closed;

  RunFileWriter(UncachedFileOutput file, Schema schema) {
    this.file = requireNonNull(file, "file is null");
    this.kinds = RunFormat.bufferKinds(requireNonNull(schema, "schema is null"));
    this.vectorCount = RunFormat.vectorCount(schema);
    this.headerBytes = RunFormat.headerBytes(vectorCount, kinds.length);
    this.probes = new int[kinds.length];
    this.longsForms = new RunFormat.LongsForm[kinds.length];
    Arrays.fill(longsForms, RunFormat.LongsForm.VALUES);
    this.valuesForms = new RunFormat.ValuesForm[kinds.length];
    Arrays.fill(valuesForms, RunFormat.ValuesForm.COMPRESSED);
    plainCompressor.setLevel(RunFormat.PLAIN_LEVEL);
    valuesCompressor.setLevel(RunFormat.VALUES_LEVEL);
  }

  /** Appends {@code batch}'s rows; a batch without rows is left out. */
  void write(VectorSchemaRoot batch) throws IOException {
    int rows = batch.getRowCount();
    if (rows == 0) {
      return;
    }
    int header = outLength;
    reserve(headerBytes);
    outLength += headerBytes;
    nodeSlot = header + 2 * Integer.BYTES;
    bufferSlot = nodeSlot + 2 * Integer.BYTES * vectorCount;
    bufferIndex = 0;
    for (FieldVector vector : batch.getFieldVectors()) {
      writeVector(vector);
    }
    if (bufferIndex != kinds.length) {
      throw new IllegalStateException(
          "A run batch has " + bufferIndex + " buffers where its schema has " + kinds.length);
    }
    RunFormat.putInt(out, header, rows);
    RunFormat.putInt(out, header + Integer.BYTES, outLength - header - headerBytes);
    if (outLength >= RunFormat.WRITE_BYTES) {
      flush();
    }
  }

  /** Bytes written to the file so far. */
  long storedBytes() {
    return storedBytes;
  }

  /** Writes the end marker and what is still collected; the file is complete afterwards. */
  void finish() throws IOException {
    reserve(headerBytes);
    Arrays.fill(out, outLength, outLength + headerBytes, (byte) 0);
    outLength += headerBytes;
    flush();
  }

  private void writeVector(FieldVector vector) throws IOException {
    RunFormat.putInt(out, nodeSlot, vector.getValueCount());
    RunFormat.putInt(out, nodeSlot + Integer.BYTES, vector.getNullCount());
    nodeSlot += 2 * Integer.BYTES;
    List<ArrowBuf> buffers = vector.getFieldBuffers();
    if (bufferIndex + buffers.size() > kinds.length) {
      throw new IllegalStateException("A run batch has more buffers than its schema");
    }
    boolean fromDictionary =
        buffers.size() == 3
            && kinds[bufferIndex + 1] == BufferKind.OFFSETS
            && kinds[bufferIndex + 2] == BufferKind.VALUES
            && dictionary.build(
                buffers.get(1).memoryAddress(),
                buffers.get(2).memoryAddress(),
                vector.getValueCount());
    boolean withoutNulls = vector.getNullCount() == 0;
    for (ArrowBuf buffer : buffers) {
      BufferKind kind = kinds[bufferIndex++];
      if (fromDictionary && kind == BufferKind.OFFSETS) {
        writeDictionary(buffer, buffers.get(2), vector.getValueCount());
      } else if (fromDictionary && kind == BufferKind.VALUES) {
        notStored(buffer);
      } else if (withoutNulls && kind == BufferKind.VALIDITY) {
        notStored(buffer);
      } else {
        writeBuffer(buffer, kind, vector, withoutNulls);
      }
    }
    for (FieldVector child : vector.getChildrenFromFields()) {
      writeVector(child);
    }
  }

  /** Stores one buffer of {@code vector}, which holds a null unless {@code withoutNulls}. */
  private void writeBuffer(
      ArrowBuf buffer, BufferKind kind, FieldVector vector, boolean withoutNulls) {
    long readable = buffer.readableBytes();
    if (readable > Integer.MAX_VALUE / 2) {
      throw new IllegalStateException("A run batch buffer of " + readable + " bytes is too large");
    }
    int length = (int) readable;
    if (raw.length < length) {
      raw = new byte[Math.max(length, 2 * raw.length)];
    }
    int stored;
    if (length == 0) {
      stored = 0;
    } else if (kind == BufferKind.OFFSETS) {
      stored = writeOffsets(buffer.memoryAddress() + buffer.readerIndex(), length);
    } else if (kind == BufferKind.LONGS) {
      long validity = withoutNulls ? 0 : vector.getValidityBuffer().memoryAddress();
      stored =
          writeLongs(buffer, length, validity, bufferIndex - 1, vector instanceof Float8Vector);
    } else if (kind == BufferKind.VALUES) {
      buffer.getBytes(buffer.readerIndex(), raw, 0, length);
      stored =
          writeValues(
              length,
              vector.getOffsetBuffer().memoryAddress(),
              vector.getValueCount(),
              bufferIndex - 1);
    } else {
      buffer.getBytes(buffer.readerIndex(), raw, 0, length);
      stored = compressOrCopy(length, plainCompressor, outLength);
    }
    RunFormat.putInt(out, bufferSlot, length);
    RunFormat.putInt(out, bufferSlot + Integer.BYTES, stored);
    bufferSlot += 2 * Integer.BYTES;
    outLength += stored;
  }

  /**
   * Stores the first {@code length} bytes of raw at {@code at} (at or after what is collected),
   * compressed when that makes them smaller; returns the bytes stored (as many as raw when they are
   * as they were).
   */
  private int compressOrCopy(int length, ZstdCompressCtx compressor, int at) {
    if (length >= RunFormat.SMALLEST_COMPRESSED) {
      reserve(at - outLength + (int) Zstd.compressBound(length));
      int compressed = compressor.compressByteArray(out, at, out.length - at, raw, 0, length);
      if (compressed < length) {
        return compressed;
      }
    }
    reserve(at - outLength + length);
    System.arraycopy(raw, 0, out, at, length);
    return length;
  }

  /**
   * Stores {@code length} bytes of 32-bit offsets at {@code address} as the lengths between them
   * ({@link RunFormat.OffsetsForm}), after a byte naming the form; returns the bytes stored.
   */
  private int writeOffsets(long address, int length) {
    int values = length / Integer.BYTES - 1;
    int previous = 0;
    int smallest = Integer.MAX_VALUE;
    int largest = Integer.MIN_VALUE;
    // one walk: the differences go to raw as ints (the first one is the first offset)
    for (int index = 0; index <= values; index++) {
      int offset = MemoryUtil.getInt(address + (long) index * Integer.BYTES);
      int difference = offset - previous;
      RunFormat.putInt(raw, index * Integer.BYTES, difference);
      if (index > 0) {
        smallest = Math.min(smallest, difference);
        largest = Math.max(largest, difference);
      }
      previous = offset;
    }
    int first = RunFormat.getInt(raw, 0);
    int body = outLength + 1;
    RunFormat.OffsetsForm form;
    int stored;
    if (first == 0 && values > 0 && smallest == largest) {
      form = RunFormat.OffsetsForm.SAME_LENGTH;
      reserve(1 + Integer.BYTES);
      RunFormat.putInt(out, body, smallest);
      stored = Integer.BYTES;
    } else if (first == 0 && smallest >= 0 && largest <= 0xff) {
      form = RunFormat.OffsetsForm.BYTE_LENGTHS;
      // narrowed in place: byte index - 1 never passes the int it is read from
      for (int index = 1; index <= values; index++) {
        raw[index - 1] = (byte) RunFormat.getInt(raw, index * Integer.BYTES);
      }
      stored = compressOrCopy(values, plainCompressor, body);
    } else {
      form = RunFormat.OffsetsForm.INT_DIFFERENCES;
      stored = compressOrCopy(length, plainCompressor, body);
    }
    out[outLength] = (byte) form.ordinal();
    return 1 + stored;
  }

  /**
   * Stores the first {@code length} bytes of raw, the string bytes of {@code rows} values whose
   * offsets are at {@code offsetsAddress}, the run's {@code bufferIndex}th buffer, after a byte
   * naming their {@link RunFormat.ValuesForm}: packed or compressed, as they were stored smallest
   * at the buffer's last probe (every {@value #PROBE_INTERVAL}th batch, the first one included,
   * stores them both ways; packed bytes win within {@value #PACKED_VALUES_MARGIN_32NDS}/32 of the
   * compressed ones). Returns the bytes stored.
   */
  private int writeValues(int length, long offsetsAddress, int rows, int bufferIndex) {
    int formAt = outLength;
    int at = formAt + 1;
    reserve(1 + PackedStrings.maxPackedBytes(length));
    RunFormat.ValuesForm form;
    int stored;
    if (probes[bufferIndex]-- <= 0) {
      probes[bufferIndex] = PROBE_INTERVAL - 1;
      int compressed = compressOrCopy(length, valuesCompressor, at);
      reserve(at - outLength + compressed + PackedStrings.maxPackedBytes(length));
      int packed = packedStrings.pack(raw, length, offsetsAddress, rows, out, at + compressed);
      if (packed >= 0
          && packed <= compressed + compressed * PACKED_VALUES_MARGIN_32NDS / Integer.SIZE) {
        form = RunFormat.ValuesForm.PACKED;
        System.arraycopy(out, at + compressed, out, at, packed);
        stored = packed;
      } else {
        form = RunFormat.ValuesForm.COMPRESSED;
        stored = compressed;
      }
      valuesForms[bufferIndex] = form;
    } else {
      form = valuesForms[bufferIndex];
      stored =
          form == RunFormat.ValuesForm.PACKED
              ? packedStrings.pack(raw, length, offsetsAddress, rows, out, at)
              : compressOrCopy(length, valuesCompressor, at);
      if (stored < 0) {
        // this batch's values use more symbols than packing takes
        form = RunFormat.ValuesForm.COMPRESSED;
        stored = compressOrCopy(length, valuesCompressor, at);
      }
    }
    out[formAt] = (byte) form.ordinal();
    return 1 + stored;
  }

  /**
   * Stores the {@code length} bytes of 64-bit values of {@code buffer}, the run's {@code
   * bufferIndex}th buffer, after a byte naming their {@link RunFormat.LongsForm}: in the form that
   * stored them smallest at the buffer's last probe. A buffer's first batch, and every {@value
   * #PROBE_INTERVAL}th after it, is stored in every form and the smallest kept; forms of doubles
   * only when it holds {@code doubles}.
   */
  private int writeLongs(
      ArrowBuf buffer, int length, long validity, int bufferIndex, boolean doubles) {
    int formAt = outLength;
    reserve(1);
    RunFormat.LongsForm form;
    if (length % Long.BYTES != 0) {
      form = RunFormat.LongsForm.VALUES;
    } else if (probes[bufferIndex]-- <= 0) {
      probes[bufferIndex] = PROBE_INTERVAL - 1;
      form = smallestLongsForm(buffer, length, validity, doubles, formAt + 1);
      longsForms[bufferIndex] = form;
    } else {
      form = longsForms[bufferIndex];
    }
    int stored = writeLongsAs(form, buffer, length, validity, formAt + 1);
    if (stored < 0) {
      // this batch's values are too far apart to pack
      form = form.compressed();
      stored = writeLongsAs(form, buffer, length, validity, formAt + 1);
    }
    out[formAt] = (byte) form.ordinal();
    return 1 + stored;
  }

  /** The form that stores {@code buffer}'s values in the fewest bytes. */
  private RunFormat.LongsForm smallestLongsForm(
      ArrowBuf buffer, int length, long validity, boolean doubles, int at) {
    RunFormat.LongsForm smallest = RunFormat.LongsForm.VALUES;
    int smallestBytes = Integer.MAX_VALUE;
    for (RunFormat.LongsForm form : RunFormat.LongsForm.values()) {
      if (form.decimals() && !doubles) {
        continue;
      }
      int bytes = writeLongsAs(form, buffer, length, validity, at);
      if (bytes >= 0 && bytes < smallestBytes) {
        smallest = form;
        smallestBytes = bytes;
      }
    }
    return smallest;
  }

  /**
   * Stores the whole longs of {@code buffer} in {@code form} at {@code at} of out; returns the
   * bytes stored, or -1 for a packed form the values do not pack into.
   */
  private int writeLongsAs(
      RunFormat.LongsForm form, ArrowBuf buffer, int length, long validity, int at) {
    int count = length / Long.BYTES;
    if (form.decimals()) {
      int exponent =
          DecimalDoubles.scale(buffer.memoryAddress() + buffer.readerIndex(), validity, count, raw);
      if (exponent < 0) {
        return -1;
      }
      reserve(at - outLength + 1 + PackedLongs.maxPackedBytes(count));
      out[at] = (byte) exponent;
      int packed = PackedLongs.pack(raw, count, out, at + 1);
      return packed < 0 ? -1 : 1 + packed;
    }
    if (form.differences()) {
      differencesIntoRaw(buffer, length, validity);
    } else {
      valuesIntoRaw(buffer, length, validity);
    }
    if (!form.packed()) {
      return compressOrCopy(length, plainCompressor, at);
    }
    reserve(at - outLength + PackedLongs.maxPackedBytes(count));
    return PackedLongs.pack(raw, count, out, at);
  }

  /**
   * Writes the 64-bit values of {@code buffer} to raw, a null row (its bit clear in {@code
   * validity}, unless that is 0) as the value before it, so that packing sees no stray value there.
   */
  private void valuesIntoRaw(ArrowBuf buffer, int length, long validity) {
    if (validity == 0) {
      buffer.getBytes(buffer.readerIndex(), raw, 0, length);
      return;
    }
    long address = buffer.memoryAddress() + buffer.readerIndex();
    long previous = 0;
    for (int index = 0; index < length / Long.BYTES; index++) {
      if ((MemoryUtil.getByte(validity + (index >>> 3)) & (1 << (index & 7))) != 0) {
        previous = MemoryUtil.getLong(address + (long) index * Long.BYTES);
      }
      RunFormat.putLong(raw, index * Long.BYTES, previous);
    }
  }

  /**
   * Writes the zigzag differences of the 64-bit values of {@code buffer} to raw. A null row (its
   * bit clear in {@code validity}, unless that is 0) counts as the value before it, a difference of
   * 0: its slot comes back holding that value, which no reader of a null looks at.
   */
  private void differencesIntoRaw(ArrowBuf buffer, int length, long validity) {
    long address = buffer.memoryAddress() + buffer.readerIndex();
    long previous = 0;
    for (int index = 0; index < length / Long.BYTES; index++) {
      long value =
          validity != 0 && (MemoryUtil.getByte(validity + (index >>> 3)) & (1 << (index & 7))) == 0
              ? previous
              : MemoryUtil.getLong(address + (long) index * Long.BYTES);
      long difference = value - previous;
      RunFormat.putLong(raw, index * Long.BYTES, (difference << 1) ^ (difference >> 63));
      previous = value;
    }
  }

  /** Notes {@code buffer}'s length with nothing stored: the reader rebuilds it. */
  private void notStored(ArrowBuf buffer) {
    RunFormat.putInt(out, bufferSlot, (int) buffer.readableBytes());
    RunFormat.putInt(out, bufferSlot + Integer.BYTES, 0);
    bufferSlot += 2 * Integer.BYTES;
  }

  /**
   * Stores the offsets buffer of a column that {@link #dictionary} was built for in the {@link
   * RunFormat.OffsetsForm#DICTIONARY} form, its values with it.
   */
  private void writeDictionary(ArrowBuf offsets, ArrowBuf values, int rows) {
    int entries = dictionary.entries();
    long rawBytes = Integer.BYTES + (long) Integer.BYTES * entries + dictionary.entryBytes() + rows;
    if (raw.length < rawBytes) {
      raw = new byte[(int) Math.max(rawBytes, 2L * raw.length)];
    }
    RunFormat.putInt(raw, 0, entries);
    int position = Integer.BYTES;
    for (int entry = 0; entry < entries; entry++) {
      RunFormat.putInt(raw, position, dictionary.entryLength(entry));
      position += Integer.BYTES;
    }
    for (int entry = 0; entry < entries; entry++) {
      int length = dictionary.entryLength(entry);
      values.getBytes(dictionary.entryStart(entry), raw, position, length);
      position += length;
    }
    System.arraycopy(dictionary.ids(), 0, raw, position, rows);
    position += rows;
    int form = outLength;
    reserve(1 + Integer.BYTES);
    out[form] = (byte) RunFormat.OffsetsForm.DICTIONARY.ordinal();
    RunFormat.putInt(out, form + 1, position);
    int stored = compressOrCopy(position, valuesCompressor, form + 1 + Integer.BYTES);
    RunFormat.putInt(out, bufferSlot, (int) offsets.readableBytes());
    RunFormat.putInt(out, bufferSlot + Integer.BYTES, 1 + Integer.BYTES + stored);
    bufferSlot += 2 * Integer.BYTES;
    outLength += 1 + Integer.BYTES + stored;
  }

  /** Makes room for {@code bytes} more bytes after what is collected. */
  private void reserve(int bytes) {
    if (out.length - outLength < bytes) {
      out = Arrays.copyOf(out, Math.max(outLength + bytes, 2 * out.length));
    }
  }

  private void flush() throws IOException {
    file.write(out, 0, outLength);
    storedBytes += outLength;
    outLength = 0;
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try (UncachedFileOutput closing = file;
        ZstdCompressCtx closingPlain = plainCompressor;
        ZstdCompressCtx closingValues = valuesCompressor) {
      // closed by the resources
    }
  }
}
