package dev.lakeops.rewrite.copy;

import dev.lakeops.rewrite.codec.HybridRunCodec;
import java.io.IOException;

/**
 * The values section of a dictionary-encoded data page: one byte of bit width, then the indices as
 * an RLE/bit-packed hybrid run without length prefix. Reads the indices, and writes them back
 * remapped or expanded to PLAIN values.
 */
final class DictionaryIndices {
  private DictionaryIndices() {}

  static int[] read(byte[] page, int offset, int end, int count) throws IOException {
    if (count == 0) {
      return new int[0];
    }
    if (offset >= end) {
      throw new IOException("Dictionary-encoded page has no indices for its " + count + " values");
    }
    int bitWidth = page[offset] & 0xFF;
    if (bitWidth > 32) {
      throw new IOException("Invalid dictionary index bit width " + bitWidth);
    }
    return HybridRunCodec.decode(page, offset + 1, end, bitWidth, count);
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
      throw new IOException(
          "Dictionary index " + index + " is outside a dictionary of " + size + " entries");
    }
    return index;
  }
}
