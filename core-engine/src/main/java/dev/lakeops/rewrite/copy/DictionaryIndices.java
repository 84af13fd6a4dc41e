package dev.lakeops.rewrite.copy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridDecoder;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridEncoder;

/**
 * The values section of a dictionary-encoded data page: one byte of bit width, then the indices
 * as an RLE/bit-packed hybrid run without length prefix. Reads the indices, and writes them back
 * remapped or expanded to PLAIN values.
 */
final class DictionaryIndices {
  private static final int INITIAL_CAPACITY = 64 * 1024;
  private static final int PAGE_CAPACITY = 1 << 20;

  private DictionaryIndices() {}

  static int[] read(byte[] page, int offset, int end, int count) throws IOException {
    int[] indices = new int[count];
    if (count == 0) {
      return indices;
    }
    if (offset >= end) {
      throw new IOException("Dictionary-encoded page has no indices for its " + count + " values");
    }
    int bitWidth = page[offset] & 0xFF;
    if (bitWidth > 32) {
      throw new IOException("Invalid dictionary index bit width " + bitWidth);
    }
    RunLengthBitPackingHybridDecoder decoder =
        new RunLengthBitPackingHybridDecoder(bitWidth, new ByteArrayInputStream(page, offset + 1, end - offset - 1));
    for (int index = 0; index < count; index++) {
      indices[index] = decoder.readInt();
    }
    return indices;
  }

  static byte[] writeRemapped(int[] indices, int[] remap, int bitWidth) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(indices.length / 2 + 16);
    out.write(bitWidth);
    try (RunLengthBitPackingHybridEncoder encoder =
        new RunLengthBitPackingHybridEncoder(
            bitWidth, INITIAL_CAPACITY, PAGE_CAPACITY, HeapByteBufferAllocator.getInstance())) {
      for (int index : indices) {
        encoder.writeInt(remap[checked(index, remap.length)]);
      }
      BytesInput encoded = encoder.toBytes();
      encoded.writeAllTo(out);
    }
    return out.toByteArray();
  }

  static byte[] writePlain(int[] indices, DictionaryValues dictionary) throws IOException {
    long length = 0;
    for (int index : indices) {
      length += dictionary.entryLength(checked(index, dictionary.size()));
    }
    if (length > Integer.MAX_VALUE - 64) {
      throw new IOException("A PLAIN page of " + length + " bytes is too large");
    }
    byte[] plain = new byte[(int) length];
    int position = 0;
    byte[] source = dictionary.bytes();
    for (int index : indices) {
      int entryLength = dictionary.entryLength(index);
      System.arraycopy(source, dictionary.entryOffset(index), plain, position, entryLength);
      position += entryLength;
    }
    return plain;
  }

  private static int checked(int index, int size) throws IOException {
    if (index < 0 || index >= size) {
      throw new IOException("Dictionary index " + index + " is outside a dictionary of " + size + " entries");
    }
    return index;
  }
}
