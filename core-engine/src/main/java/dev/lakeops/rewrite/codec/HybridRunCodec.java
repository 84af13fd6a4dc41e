package dev.lakeops.rewrite.codec;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import org.apache.parquet.column.values.bitpacking.BytePacker;
import org.apache.parquet.column.values.bitpacking.Packer;

/**
 * Parquet's RLE/bit-packing hybrid encoding of small integers (dictionary ids), whole arrays at a
 * time: runs are unpacked and packed eight values per call to parquet-java's {@link BytePacker}
 * instead of one value per call, which is what dictionary remapping spends its time on.
 *
 * <p>Format (parquet-format Encodings.md): a sequence of runs, each with an unsigned varint header;
 * an even header is an RLE run of {@code header >>> 1} copies of one value stored in {@code
 * ceil(bitWidth / 8)} little-endian bytes; an odd header is {@code header >>> 1} groups of eight
 * bit-packed values. The encoder writes runs of eight or more equal values that start a group (and
 * any run that ends the array) as RLE and everything else bit-packed, at most 63 groups per
 * bit-packed run (a one-byte header, as parquet-java writes them).
 */
public final class HybridRunCodec {
  private static final int MAX_GROUPS_PER_PACKED_RUN = 63;

  private HybridRunCodec() {}

  /** Decodes {@code count} values from {@code data[offset, end)}. */
  public static int[] decode(byte[] data, int offset, int end, int bitWidth, int count)
      throws IOException {
    int[] values = new int[decodeLength(count)];
    decodeInto(data, offset, end, bitWidth, count, values);
    return Arrays.copyOf(values, count);
  }

  /**
   * How long an array {@link #decodeInto} needs for {@code count} values: bit-packed groups are
   * whole.
   */
  public static int decodeLength(int count) {
    return count + 8;
  }

  /**
   * Decodes {@code count} values from {@code data[offset, end)} into {@code values[0, count)}, an
   * array of at least {@link #decodeLength} entries whose entries past {@code count} it may
   * overwrite: callers decoding page after page reuse one array.
   */
  public static void decodeInto(
      byte[] data, int offset, int end, int bitWidth, int count, int[] values) throws IOException {
    if (values.length < decodeLength(count)) {
      throw new IllegalArgumentException(
          "Decoding "
              + count
              + " values needs "
              + decodeLength(count)
              + " entries, not "
              + values.length);
    }
    if (bitWidth == 0) {
      Arrays.fill(values, 0, count, 0);
      return;
    }
    BytePacker packer = Packer.LITTLE_ENDIAN.newBytePacker(bitWidth);
    int valueBytes = (bitWidth + 7) / 8;
    int position = offset;
    int decoded = 0;
    while (decoded < count) {
      if (position >= end) {
        throw new IOException(
            "RLE/bit-packed values end after " + decoded + " of " + count + " values");
      }
      int header = 0;
      int shift = 0;
      int next;
      do {
        if (position >= end || shift > 28) {
          throw new IOException("Malformed run header in RLE/bit-packed values");
        }
        next = data[position++] & 0xFF;
        header |= (next & 0x7F) << shift;
        shift += 7;
      } while ((next & 0x80) != 0);
      if ((header & 1) == 0) {
        int runLength = header >>> 1;
        if (position + valueBytes > end) {
          throw new IOException("Truncated RLE run in RLE/bit-packed values");
        }
        int value = 0;
        for (int index = 0; index < valueBytes; index++) {
          value |= (data[position++] & 0xFF) << (8 * index);
        }
        int take = Math.min(runLength, count - decoded);
        Arrays.fill(values, decoded, decoded + take, value);
        decoded += take;
      } else {
        int groups = header >>> 1;
        for (int group = 0; group < groups && decoded < count; group++) {
          if (position + bitWidth > end) {
            if (count - decoded > 8) {
              throw new IOException(
                  "Truncated bit-packed run in RLE/bit-packed values after "
                      + decoded
                      + " of "
                      + count
                      + " values");
            }
            // the last group of a page may be cut short (as parquet-java reads it); pad it with
            // zeros
            byte[] padded = new byte[bitWidth];
            System.arraycopy(data, position, padded, 0, Math.max(0, end - position));
            packer.unpack8Values(padded, 0, values, decoded);
            position = end;
          } else {
            packer.unpack8Values(data, position, values, decoded);
            position += bitWidth;
          }
          decoded += 8;
        }
      }
    }
  }

  /** Encodes {@code values[i]} mapped through {@code remap} with {@code bitWidth} bits each. */
  public static void encodeRemapped(
      int[] values, int[] remap, int bitWidth, ByteArrayOutputStream out) throws IOException {
    int count = values.length;
    int[] mapped = new int[(count + 7) & ~7];
    for (int index = 0; index < count; index++) {
      int value = values[index];
      if (value < 0 || value >= remap.length) {
        throw new IOException(
            "Dictionary index "
                + value
                + " is outside a dictionary of "
                + remap.length
                + " entries");
      }
      mapped[index] = remap[value];
    }
    encode(mapped, count, bitWidth, out);
  }

  /**
   * Encodes the first {@code count} of {@code values} (its length a multiple of eight, padded with
   * zeros).
   */
  public static void encode(int[] values, int count, int bitWidth, ByteArrayOutputStream out) {
    if (bitWidth == 0 || count == 0) {
      if (count > 0) {
        writeVarint(out, count << 1);
      }
      return;
    }
    BytePacker packer = Packer.LITTLE_ENDIAN.newBytePacker(bitWidth);
    int valueBytes = (bitWidth + 7) / 8;
    byte[] packed = new byte[bitWidth * MAX_GROUPS_PER_PACKED_RUN];
    int position = 0;
    int packedStart = -1;
    int packedGroups = 0;
    while (position < count) {
      // position is always at the start of a group of eight
      int runEnd = position + 1;
      while (runEnd < count && values[runEnd] == values[position]) {
        runEnd++;
      }
      int runLength = runEnd - position;
      if (runLength >= 8 || runEnd == count) {
        int rleLength = runEnd == count ? runLength : runLength & ~7;
        if (packedGroups > 0) {
          flushPacked(out, packer, values, packedStart, packedGroups, bitWidth, packed);
          packedGroups = 0;
        }
        writeVarint(out, rleLength << 1);
        int value = values[position];
        for (int index = 0; index < valueBytes; index++) {
          out.write((value >>> (8 * index)) & 0xFF);
        }
        position += rleLength;
        continue;
      }
      if (packedGroups == 0) {
        packedStart = position;
      }
      packedGroups++;
      position += 8;
      if (packedGroups == MAX_GROUPS_PER_PACKED_RUN) {
        flushPacked(out, packer, values, packedStart, packedGroups, bitWidth, packed);
        packedGroups = 0;
      }
    }
    if (packedGroups > 0) {
      flushPacked(out, packer, values, packedStart, packedGroups, bitWidth, packed);
    }
  }

  private static void flushPacked(
      ByteArrayOutputStream out,
      BytePacker packer,
      int[] values,
      int start,
      int groups,
      int bitWidth,
      byte[] packed) {
    writeVarint(out, (groups << 1) | 1);
    for (int group = 0; group < groups; group++) {
      packer.pack8Values(values, start + 8 * group, packed, group * bitWidth);
    }
    out.write(packed, 0, groups * bitWidth);
  }

  private static void writeVarint(ByteArrayOutputStream out, int value) {
    int remaining = value;
    while ((remaining & ~0x7F) != 0) {
      out.write((remaining & 0x7F) | 0x80);
      remaining >>>= 7;
    }
    out.write(remaining);
  }
}
