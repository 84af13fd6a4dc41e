package dev.lakeops.rewrite.copy;

import java.io.IOException;
import java.util.Arrays;
import org.apache.parquet.column.values.bitpacking.BytePacker;
import org.apache.parquet.column.values.bitpacking.Packer;

/**
 * Rewrites the dictionary ids of a dictionary-encoded page into a merged dictionary's ids run by
 * run, without materialising them: an RLE run stays one run with its value remapped; a bit-packed
 * run stays a bit-packed run of as many groups, each group of eight ids unpacked, remapped and
 * packed again at the merged dictionary's bit width. Ids past the page's value count (the padding
 * of its last group) are written as 0.
 *
 * <p>Input and output are the values section of a dictionary-encoded page: one byte of bit width,
 * then the ids as an RLE/bit-packed hybrid without length prefix.
 */
final class DictionaryIdTranscoder {
  private final int[] remap;
  private final int outputBitWidth;
  private final int[] unpacked = new int[8];
  private final int[] mapped = new int[8];
  private final int[] unpackedBlock = new int[32];
  private final int[] mappedBlock = new int[32];
  private byte[] output = new byte[1024];
  private int written;

  /**
   * @param remap for each id of the page's dictionary, its id in the merged dictionary
   * @param outputBitWidth the merged dictionary's bit width
   */
  DictionaryIdTranscoder(int[] remap, int outputBitWidth) {
    this.remap = remap.clone();
    if (outputBitWidth < 0 || outputBitWidth > 32) {
      throw new IllegalArgumentException("Invalid bit width " + outputBitWidth);
    }
    this.outputBitWidth = outputBitWidth;
  }

  /** The page's {@code count} ids in {@code page[offset, end)}, remapped. */
  byte[] transcode(byte[] page, int offset, int end, int count) throws IOException {
    written = 0;
    ensure(1 + (end - offset) * 2);
    output[written++] = (byte) outputBitWidth;
    if (count == 0) {
      return Arrays.copyOf(output, written);
    }
    if (offset >= end) {
      throw new IOException("Dictionary-encoded page has no ids for its " + count + " values");
    }
    int inputBitWidth = page[offset] & 0xFF;
    if (inputBitWidth > 32) {
      throw new IOException("Invalid dictionary id bit width " + inputBitWidth);
    }
    BytePacker unpacker = Packer.LITTLE_ENDIAN.newBytePacker(inputBitWidth);
    BytePacker packer = Packer.LITTLE_ENDIAN.newBytePacker(outputBitWidth);
    int inputValueBytes = (inputBitWidth + 7) / 8;
    int outputValueBytes = (outputBitWidth + 7) / 8;
    int position = offset + 1;
    int done = 0;
    while (done < count) {
      if (position >= end) {
        throw new IOException("Dictionary ids end after " + done + " of " + count + " values");
      }
      int header = 0;
      int shift = 0;
      int next;
      do {
        if (position >= end || shift > 28) {
          throw new IOException("Malformed run header in dictionary ids");
        }
        next = page[position++] & 0xFF;
        header |= (next & 0x7F) << shift;
        shift += 7;
      } while ((next & 0x80) != 0);
      if ((header & 1) == 0) {
        int runLength = Math.min(header >>> 1, count - done);
        if (position + inputValueBytes > end) {
          throw new IOException("Truncated RLE run in dictionary ids");
        }
        int id = 0;
        for (int index = 0; index < inputValueBytes; index++) {
          id |= (page[position++] & 0xFF) << (8 * index);
        }
        if (runLength == 0) {
          continue;
        }
        int mappedId = mapped(id);
        ensure(written + 5 + outputValueBytes);
        writeVarint(runLength << 1);
        for (int index = 0; index < outputValueBytes; index++) {
          output[written++] = (byte) (mappedId >>> (8 * index));
        }
        done += runLength;
      } else {
        int groups = Math.min(header >>> 1, (count - done + 7) / 8);
        ensure(written + 5 + groups * outputBitWidth);
        writeVarint((groups << 1) | 1);
        int group = 0;
        // whole blocks of 32 ids (four groups) at a time while none of them is padding or cut short
        while (group + 4 <= groups && done + 32 <= count && position + 4 * inputBitWidth <= end) {
          unpacker.unpack32Values(page, position, unpackedBlock, 0);
          position += 4 * inputBitWidth;
          remapBlock();
          packer.pack32Values(mappedBlock, 0, output, written);
          written += 4 * outputBitWidth;
          done += 32;
          group += 4;
        }
        for (; group < groups; group++) {
          position = unpackGroup(unpacker, page, position, end, inputBitWidth, count - done);
          for (int index = 0; index < 8; index++) {
            mapped[index] = done + index < count ? mapped(unpacked[index]) : 0;
          }
          packer.pack8Values(mapped, 0, output, written);
          written += outputBitWidth;
          done += 8;
        }
        // a run longer than the page's count has only padding left: the loop ends here
      }
    }
    return Arrays.copyOf(output, written);
  }

  /** Replaces ids {@code ids[0, count)} by their merged ids; returns the merged bit width. */
  int remapInPlace(int[] ids, int count) throws IOException {
    for (int index = 0; index < count; index++) {
      ids[index] = mapped(ids[index]);
    }
    return outputBitWidth;
  }

  private int unpackGroup(
      BytePacker unpacker, byte[] page, int position, int end, int bitWidth, int remaining)
      throws IOException {
    if (position + bitWidth <= end) {
      unpacker.unpack8Values(page, position, unpacked, 0);
      return position + bitWidth;
    }
    if (remaining > 8) {
      throw new IOException("Truncated bit-packed run in dictionary ids");
    }
    // the last group of a page may be cut short (as parquet-java reads it): pad it with zeros
    byte[] padded = new byte[bitWidth];
    System.arraycopy(page, position, padded, 0, Math.max(0, end - position));
    unpacker.unpack8Values(padded, 0, unpacked, 0);
    return end;
  }

  private void remapBlock() throws IOException {
    int[] table = remap;
    for (int index = 0; index < 32; index++) {
      int id = unpackedBlock[index];
      if (id < 0 || id >= table.length) {
        throw outside(id);
      }
      mappedBlock[index] = table[id];
    }
  }

  private IOException outside(int id) {
    return new IOException(
        "Dictionary index " + id + " is outside a dictionary of " + remap.length + " entries");
  }

  private int mapped(int id) throws IOException {
    if (id < 0 || id >= remap.length) {
      throw outside(id);
    }
    return remap[id];
  }

  private void writeVarint(int value) {
    int remaining = value;
    while ((remaining & ~0x7F) != 0) {
      output[written++] = (byte) ((remaining & 0x7F) | 0x80);
      remaining >>>= 7;
    }
    output[written++] = (byte) remaining;
  }

  private void ensure(int capacity) {
    if (output.length < capacity) {
      output = Arrays.copyOf(output, Math.max(capacity, 2 * output.length));
    }
  }
}
