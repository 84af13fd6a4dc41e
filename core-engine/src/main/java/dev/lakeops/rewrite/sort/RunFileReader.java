package dev.lakeops.rewrite.sort;

import static java.util.Objects.requireNonNull;

import dev.lakeops.rewrite.sort.RunFormat.BufferKind;
import dev.lakeops.rewrite.sort.RunFormat.LongsForm;
import dev.lakeops.rewrite.sort.RunFormat.OffsetsForm;
import dev.lakeops.rewrite.sort.RunFormat.ValuesForm;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Reads the batches of a run file written by {@link RunFileWriter}, one at a time, into a {@link
 * VectorSchemaRoot}: a batch's header and its stored buffers take one read each; its buffers are
 * decompressed into one Arrow allocation, sliced per buffer. Values of strings and binaries get
 * {@link ColumnGather#WORD_COPY_BYTES} bytes of room after them, so gathers can copy every one of
 * them in whole words.
 */
final class RunFileReader implements AutoCloseable {
  private static final int ALIGNMENT = Long.BYTES;

  private final Path path;
  private final FileChannel file;
  private final BufferKind[] kinds;
  private final int[] bufferVectors;
  private final int vectorCount;
  private final byte[] header;
  private final int[] rawLengths;
  private final int[] storedLengths;
  private final RunDecompression decompression;
  private VectorSchemaRoot loaderRoot;
  private VectorLoader loader;
  private byte[] stored = new byte[0];
  private byte[] unpacked = new byte[0];
  private boolean closed;

  RunFileReader(Path path, FileChannel file, Schema schema, RunDecompression decompression) {
    this.path = requireNonNull(path, "path is null");
    this.file = requireNonNull(file, "file is null");
    this.kinds = RunFormat.bufferKinds(requireNonNull(schema, "schema is null"));
    this.bufferVectors = RunFormat.bufferVectors(schema);
    this.vectorCount = RunFormat.vectorCount(schema);
    this.header = new byte[RunFormat.headerBytes(vectorCount, kinds.length)];
    this.rawLengths = new int[kinds.length];
    this.storedLengths = new int[kinds.length];
    this.decompression = requireNonNull(decompression, "decompression is null");
  }

  /**
   * Loads the next batch into {@code root} (of the run's schema), its buffers allocated from {@code
   * allocator}; {@code false} at the end of the run.
   */
  boolean next(VectorSchemaRoot root, BufferAllocator allocator) throws IOException {
    if (!fill(header, header.length)) {
      throw new EOFException("Spill file " + path + " ends before its end marker");
    }
    int rows = RunFormat.getInt(header, 0);
    int storedLength = RunFormat.getInt(header, Integer.BYTES);
    if (rows == 0) {
      return false;
    }
    if (rows < 0 || storedLength < 0) {
      throw damaged("a batch header claims " + rows + " rows in " + storedLength + " bytes");
    }
    if (stored.length < storedLength) {
      stored = new byte[Math.max(storedLength, stored.length + stored.length / 2)];
    }
    if (!fill(stored, storedLength)) {
      throw new EOFException("Spill file " + path + " ends inside a batch");
    }
    load(root, allocator, rows, storedLength);
    return true;
  }

  private void load(VectorSchemaRoot root, BufferAllocator allocator, int rows, int storedLength)
      throws IOException {
    int bufferHeader = 2 * Integer.BYTES * (1 + vectorCount);
    long bodyBytes = 0;
    long storedTotal = 0;
    for (int buffer = 0; buffer < kinds.length; buffer++) {
      int rawLength = RunFormat.getInt(header, bufferHeader + 2 * Integer.BYTES * buffer);
      int bufferStored =
          RunFormat.getInt(header, bufferHeader + 2 * Integer.BYTES * buffer + Integer.BYTES);
      rawLengths[buffer] = rawLength;
      storedLengths[buffer] = bufferStored;
      // offsets, 64-bit values and string bytes carry a form byte, offsets a dictionary's entries
      boolean mayGrow = kinds[buffer] != BufferKind.PLAIN && kinds[buffer] != BufferKind.VALIDITY;
      if (rawLength < 0 || bufferStored < 0 || (bufferStored > rawLength && !mayGrow)) {
        throw damaged("a buffer claims " + bufferStored + " of " + rawLength + " bytes");
      }
      bodyBytes += aligned(capacity(buffer, rawLength));
      storedTotal += bufferStored;
    }
    if (storedTotal != storedLength) {
      throw damaged(
          "its buffers hold " + storedTotal + " bytes where the batch says " + storedLength);
    }
    List<ArrowFieldNode> nodes = new ArrayList<>(vectorCount);
    for (int vector = 0; vector < vectorCount; vector++) {
      int at = 2 * Integer.BYTES * (1 + vector);
      nodes.add(
          new ArrowFieldNode(
              RunFormat.getInt(header, at), RunFormat.getInt(header, at + Integer.BYTES)));
    }
    ArrowRecordBatch batch;
    try (ArrowBuf body = allocator.buffer(bodyBytes)) {
      List<ArrowBuf> buffers = new ArrayList<>(kinds.length);
      long bodyOffset = 0;
      for (int buffer = 0; buffer < kinds.length; buffer++) {
        int rawLength = rawLengths[buffer];
        int capacity = capacity(buffer, rawLength);
        ArrowBuf slice = body.slice(bodyOffset, capacity);
        slice.writerIndex(rawLength);
        buffers.add(slice);
        bodyOffset += aligned(capacity);
      }
      int storedOffset = 0;
      boolean valuesBuilt = false;
      for (int buffer = 0; buffer < kinds.length; buffer++) {
        int rawLength = rawLengths[buffer];
        int bufferStored = storedLengths[buffer];
        BufferKind kind = kinds[buffer];
        if (kind == BufferKind.VALUES && valuesBuilt) {
          valuesBuilt = false;
        } else if (kind == BufferKind.OFFSETS && rawLength > 0) {
          valuesBuilt =
              restoreOffsets(
                  buffers.get(buffer).memoryAddress(),
                  buffer + 1 < kinds.length ? buffers.get(buffer + 1) : null,
                  storedOffset,
                  bufferStored,
                  rawLength);
        } else if (kind == BufferKind.LONGS && rawLength > 0) {
          restoreLongs(buffers.get(buffer).memoryAddress(), storedOffset, bufferStored, rawLength);
        } else if (kind == BufferKind.VALUES && rawLength > 0 && buffer > 0) {
          restoreValues(
              buffers.get(buffer),
              buffers.get(buffer - 1).memoryAddress(),
              nodes.get(bufferVectors[buffer]).getLength(),
              storedOffset,
              bufferStored,
              rawLength);
        } else {
          restore(buffers.get(buffer), kind, storedOffset, bufferStored, rawLength);
        }
        storedOffset += bufferStored;
      }
      batch = new ArrowRecordBatch(rows, nodes, buffers);
    }
    try (ArrowRecordBatch loading = batch) {
      loaderOf(root).load(loading);
    }
  }

  /** The loader into {@code root}, made once for the root the batches are read into. */
  private VectorLoader loaderOf(VectorSchemaRoot root) {
    if (root != loaderRoot) {
      loader = new VectorLoader(root);
      loaderRoot = root;
    }
    return loader;
  }

  /** Writes one buffer's raw bytes into {@code target}, decompressing and summing as stored. */
  private void restore(
      ArrowBuf target, BufferKind kind, int storedOffset, int storedLength, int rawLength)
      throws IOException {
    if (rawLength == 0) {
      return;
    }
    if (storedLength == 0) {
      if (kind != BufferKind.VALIDITY) {
        throw damaged("a buffer of " + rawLength + " bytes is missing");
      }
      // a vector without nulls; Arrow sets the bits itself when it loads the vector
      target.setOne(0, rawLength);
    } else if (storedLength == rawLength) {
      target.setBytes(0, stored, storedOffset, rawLength);
    } else {
      target.setBytes(0, decompress(storedOffset, storedLength, rawLength), 0, rawLength);
    }
  }

  /**
   * Writes the {@code rawLength} bytes of 64-bit values stored at {@code storedOffset} to {@code
   * address}, unpacking them and summing them back from their differences where they were stored
   * so.
   */
  private void restoreLongs(long address, int storedOffset, int storedLength, int rawLength)
      throws IOException {
    LongsForm form =
        storedForm(LongsForm.values(), storedOffset, storedLength, "a buffer of 64-bit values");
    if (form.decimals()) {
      int exponent = storedLength < 2 ? -1 : stored[storedOffset + 1];
      if (!DecimalDoubles.isExponent(exponent)) {
        throw damaged("a buffer of decimal doubles has " + exponent + " places");
      }
      byte[] scaled = unpacked(storedOffset + 2, storedLength - 2, rawLength);
      DecimalDoubles.unscale(scaled, rawLength / Long.BYTES, exponent, address);
      return;
    }
    byte[] body;
    int from;
    if (form.packed()) {
      body = unpacked(storedOffset + 1, storedLength - 1, rawLength);
      from = 0;
    } else {
      body = plain(storedOffset + 1, storedLength - 1, rawLength);
      from = body == stored ? storedOffset + 1 : 0;
    }
    if (!form.differences()) {
      MemoryUtil.copyToMemory(body, from, address, rawLength);
      return;
    }
    long value = 0;
    for (int index = 0; index < rawLength / Long.BYTES; index++) {
      long zigzag = RunFormat.getLong(body, from + index * Long.BYTES);
      value += (zigzag >>> 1) ^ -(zigzag & 1);
      MemoryUtil.putLong(address + (long) index * Long.BYTES, value);
    }
  }

  /**
   * Writes the {@code rawLength} string bytes of {@code rows} values stored at {@code storedOffset}
   * into {@code target}; their offsets, already restored, are at {@code offsetsAddress}.
   */
  private void restoreValues(
      ArrowBuf target,
      long offsetsAddress,
      int rows,
      int storedOffset,
      int storedLength,
      int rawLength)
      throws IOException {
    ValuesForm form =
        storedForm(ValuesForm.values(), storedOffset, storedLength, "a string buffer");
    if (form == ValuesForm.COMPRESSED) {
      byte[] body = plain(storedOffset + 1, storedLength - 1, rawLength);
      target.setBytes(0, body, body == stored ? storedOffset + 1 : 0, rawLength);
      return;
    }
    byte[] values;
    try {
      values =
          decompression.unpackStrings(
              stored, storedOffset + 1, storedLength - 1, offsetsAddress, rows, rawLength);
    } catch (IllegalArgumentException e) {
      throw damaged(e.getMessage());
    }
    target.setBytes(0, values, 0, rawLength);
  }

  /**
   * The form named by the byte at {@code storedOffset} that starts a buffer of {@code storedLength}
   * bytes ({@code buffer} says which, for the error).
   */
  private <F> F storedForm(F[] forms, int storedOffset, int storedLength, String buffer)
      throws IOException {
    if (storedLength < 1) {
      throw damaged(buffer + " has no form");
    }
    int ordinal = stored[storedOffset];
    if (ordinal < 0 || ordinal >= forms.length) {
      throw damaged(buffer + " has an unknown form " + ordinal);
    }
    return forms[ordinal];
  }

  /** The {@code rawLength} bytes of longs packed at {@code offset}, in a scratch array from 0. */
  private byte[] unpacked(int offset, int packedLength, int rawLength) throws IOException {
    if (rawLength % Long.BYTES != 0) {
      throw damaged("packed 64-bit values claim " + rawLength + " bytes");
    }
    if (unpacked.length < rawLength) {
      unpacked = new byte[Math.max(rawLength, 2 * unpacked.length)];
    }
    try {
      PackedLongs.unpack(stored, offset, packedLength, rawLength / Long.BYTES, unpacked);
    } catch (IllegalArgumentException e) {
      throw damaged(e.getMessage());
    }
    return unpacked;
  }

  /**
   * Sums the stored lengths of an offsets buffer back into offsets at {@code address}; returns
   * whether they were stored with a dictionary, whose entries it then writes into {@code
   * valuesBuffer}.
   */
  private boolean restoreOffsets(
      long address, ArrowBuf valuesBuffer, int storedOffset, int storedLength, int rawLength)
      throws IOException {
    OffsetsForm form =
        storedForm(OffsetsForm.values(), storedOffset, storedLength, "an offsets buffer");
    int bodyOffset = storedOffset + 1;
    int bodyLength = storedLength - 1;
    int values = rawLength / Integer.BYTES - 1;
    MemoryUtil.putInt(address, 0);
    switch (form) {
      case SAME_LENGTH -> {
        if (bodyLength != Integer.BYTES) {
          throw damaged("an offsets buffer of one length holds " + bodyLength + " bytes");
        }
        int length = RunFormat.getInt(stored, bodyOffset);
        for (int index = 1; index <= values; index++) {
          MemoryUtil.putInt(address + (long) index * Integer.BYTES, index * length);
        }
      }
      case BYTE_LENGTHS -> {
        byte[] lengths = plain(bodyOffset, bodyLength, values);
        int from = lengths == stored ? bodyOffset : 0;
        int sum = 0;
        for (int index = 1; index <= values; index++) {
          sum += lengths[from + index - 1] & 0xff;
          MemoryUtil.putInt(address + (long) index * Integer.BYTES, sum);
        }
      }
      case INT_DIFFERENCES -> {
        byte[] differences = plain(bodyOffset, bodyLength, rawLength);
        int from = differences == stored ? bodyOffset : 0;
        int sum = 0;
        for (int index = 0; index <= values; index++) {
          sum += RunFormat.getInt(differences, from + index * Integer.BYTES);
          MemoryUtil.putInt(address + (long) index * Integer.BYTES, sum);
        }
      }
      case DICTIONARY -> {
        if (valuesBuffer == null) {
          throw damaged("a dictionary has no values buffer to fill");
        }
        fromDictionary(address, valuesBuffer, bodyOffset, bodyLength, values);
        return true;
      }
    }
    return false;
  }

  /**
   * Writes the offsets of {@code rows} values at {@code address} and their bytes into {@code
   * values}, from a dictionary stored at {@code offset}.
   */
  private void fromDictionary(long address, ArrowBuf values, int offset, int length, int rows)
      throws IOException {
    if (length < Integer.BYTES) {
      throw damaged("a dictionary is cut short");
    }
    int rawLength = RunFormat.getInt(stored, offset);
    byte[] dictionary = plain(offset + Integer.BYTES, length - Integer.BYTES, rawLength);
    int from = dictionary == stored ? offset + Integer.BYTES : 0;
    int entries = RunFormat.getInt(dictionary, from);
    long lengthsEnd = Integer.BYTES + (long) Integer.BYTES * Math.max(0, entries);
    if (entries < 0 || entries > RunDictionary.MOST_ENTRIES || lengthsEnd > rawLength) {
      throw damaged("a dictionary claims " + entries + " entries");
    }
    int[] entryStart = new int[entries];
    int[] entryLength = new int[entries];
    int position = (int) lengthsEnd;
    for (int entry = 0; entry < entries; entry++) {
      entryLength[entry] = RunFormat.getInt(dictionary, from + Integer.BYTES * (1 + entry));
      entryStart[entry] = from + position;
      position += entryLength[entry];
      if (entryLength[entry] < 0 || position > rawLength) {
        throw damaged("a dictionary's entries run past its end");
      }
    }
    if ((long) position + rows != rawLength) {
      throw damaged(
          "a dictionary holds ids for " + (rawLength - position) + " of " + rows + " rows");
    }
    int ids = from + position;
    int sum = 0;
    long valuesCapacity = values.capacity();
    for (int row = 0; row < rows; row++) {
      int entry = dictionary[ids + row] & 0xff;
      if (entry >= entries) {
        throw damaged("a row has dictionary id " + entry + " of " + entries);
      }
      int entryBytes = entryLength[entry];
      if (sum + (long) entryBytes > valuesCapacity) {
        throw damaged("a dictionary's values do not fit their buffer");
      }
      values.setBytes(sum, dictionary, entryStart[entry], entryBytes);
      sum += entryBytes;
      MemoryUtil.putInt(address + (long) (row + 1) * Integer.BYTES, sum);
    }
  }

  /**
   * The {@code rawLength} bytes stored at {@code offset}: the stored array itself when they were
   * stored as they are, else the decompression's scratch array from 0.
   */
  private byte[] plain(int offset, int storedLength, int rawLength) throws IOException {
    if (storedLength == rawLength) {
      return stored;
    }
    if (storedLength > rawLength) {
      throw damaged("a buffer claims " + storedLength + " stored bytes of " + rawLength);
    }
    return decompress(offset, storedLength, rawLength);
  }

  private byte[] decompress(int offset, int storedLength, int rawLength) throws IOException {
    try {
      return decompression.decompress(stored, offset, storedLength, rawLength);
    } catch (RuntimeException e) {
      throw damaged(e.getMessage());
    }
  }

  private int capacity(int buffer, int rawLength) {
    return kinds[buffer] == BufferKind.VALUES
        ? rawLength + ColumnGather.WORD_COPY_BYTES
        : rawLength;
  }

  private static long aligned(long bytes) {
    return (bytes + ALIGNMENT - 1) & -ALIGNMENT;
  }

  /** Reads {@code length} bytes into the start of {@code target}; false if the file ends first. */
  private boolean fill(byte[] target, int length) throws IOException {
    ByteBuffer buffer = ByteBuffer.wrap(target, 0, length);
    while (buffer.hasRemaining()) {
      if (file.read(buffer) < 0) {
        return false;
      }
    }
    return true;
  }

  private IOException damaged(String problem) {
    return new IOException("Spill file " + path + " is damaged: " + problem);
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    file.close();
  }
}
