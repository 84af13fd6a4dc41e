package dev.lakeops.rewrite.copy;

import java.io.IOException;
import org.apache.parquet.column.values.bitpacking.BytePacker;
import org.apache.parquet.column.values.bitpacking.Packer;

/**
 * Counts the non-null values of a page from its RLE/bit-packed definition levels, run by run: an
 * RLE run counts whole, a bit-packed run eight levels at a time.
 */
final class DefinedValueCount {
  private DefinedValueCount() {}

  /**
   * How many of the {@code valueCount} levels in {@code levels[offset, end)}, {@code bitWidth} bits
   * each, equal {@code maxDefinitionLevel}.
   */
  static int of(
      byte[] levels, int offset, int end, int bitWidth, int valueCount, int maxDefinitionLevel)
      throws IOException {
    BytePacker unpacker = Packer.LITTLE_ENDIAN.newBytePacker(bitWidth);
    int valueBytes = (bitWidth + 7) / 8;
    int[] group = new int[8];
    int position = offset;
    int done = 0;
    int defined = 0;
    while (done < valueCount) {
      if (position >= end) {
        throw new IOException(
            "Definition levels end after " + done + " of " + valueCount + " values");
      }
      int header = 0;
      int shift = 0;
      int next;
      do {
        if (position >= end || shift > 28) {
          throw new IOException("Malformed run header in definition levels");
        }
        next = levels[position++] & 0xFF;
        header |= (next & 0x7F) << shift;
        shift += 7;
      } while ((next & 0x80) != 0);
      if ((header & 1) == 0) {
        int runLength = Math.min(header >>> 1, valueCount - done);
        if (position + valueBytes > end) {
          throw new IOException("Truncated RLE run in definition levels");
        }
        int level = 0;
        for (int index = 0; index < valueBytes; index++) {
          level |= (levels[position++] & 0xFF) << (8 * index);
        }
        defined += level == maxDefinitionLevel ? runLength : 0;
        done += runLength;
      } else {
        int groups = header >>> 1;
        for (int index = 0; index < groups && done < valueCount; index++) {
          if (position + bitWidth <= end) {
            unpacker.unpack8Values(levels, position, group, 0);
            position += bitWidth;
          } else {
            if (valueCount - done > 8) {
              throw new IOException("Truncated bit-packed run in definition levels");
            }
            byte[] padded = new byte[bitWidth];
            System.arraycopy(levels, position, padded, 0, Math.max(0, end - position));
            unpacker.unpack8Values(padded, 0, group, 0);
            position = end;
          }
          int take = Math.min(8, valueCount - done);
          for (int value = 0; value < take; value++) {
            defined += group[value] == maxDefinitionLevel ? 1 : 0;
          }
          done += take;
        }
      }
    }
    return defined;
  }
}
