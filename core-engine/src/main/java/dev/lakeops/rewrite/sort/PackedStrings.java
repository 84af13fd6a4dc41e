package dev.lakeops.rewrite.sort;

import java.util.Arrays;
import org.apache.arrow.memory.util.MemoryUtil;

/**
 * The bytes of a batch's strings packed in the bits their alphabet needs, after the prefix every
 * non-empty value shares: {@code session-} and 16 hex digits take the prefix once and 8 bytes a
 * value, hex ids half their bytes, base64 three quarters. That is what zstd's entropy coder makes
 * of such values too, at a tenth of its time on both sides: it spends most of it looking for
 * matches that random digits do not have.
 *
 * <p>Values of more than {@value #MOST_SYMBOLS} distinct bytes are packed too when the bytes beyond
 * the {@value #MOST_SYMBOLS} - 1 most frequent are rare (at most one symbol in {@value
 * #ESCAPED_SHARE_DIVISOR}): those take the escape code, the last of {@value #MAX_WIDTH} bits, and
 * are stored as they are in a list of their own. Base64 ids, whose padding {@code =} is a 65th
 * byte, take 77 % of their bytes that way (zstd's frame: 75 %).
 *
 * <p>Layout: the bit width (1 byte, 0 to {@value #MAX_WIDTH}; {@value #ESCAPING} added when symbols
 * are escaped), the number of symbols (1 byte, at most {@value #MOST_SYMBOLS}), the symbols in code
 * order, the prefix's length (a little-endian int) and bytes, when escaping the number of escaped
 * symbols (an int) and their bytes in order, then the symbols after the prefix of every non-empty
 * value, one after another, in groups of 8 symbols in {@code width} bytes (low bits first; the last
 * group filled with code 0, or the escape code), then {@value #PADDING_BYTES} zero bytes, so that
 * every group is read with one 8-byte load. An empty value (a null's, or an empty string) holds
 * nothing, not even the prefix.
 *
 * <p>An instance keeps scratch arrays between batches; it is not thread-safe.
 */
final class PackedStrings {
  /** The widest code. */
  static final int MAX_WIDTH = 6;

  static final int MOST_SYMBOLS = 1 << MAX_WIDTH;

  static final int PADDING_BYTES = Long.BYTES;

  /** Values escape at most one symbol in this many; more, and they are not packed. */
  static final int ESCAPED_SHARE_DIVISOR = 16;

  /** Added to the width byte when symbols are escaped. */
  static final int ESCAPING = 0x80;

  /** The code of an escaped symbol: the last code of {@value #MAX_WIDTH} bits. */
  private static final int ESCAPE = MOST_SYMBOLS - 1;

  private static final int GROUP = 8;

  private final long[] codes = new long[256];
  private final long[] symbols = new long[MOST_SYMBOLS];
  private final int[] frequencies = new int[256];
  private final int[] sortedFrequencies = new int[256];
  private final boolean[] escaped = new boolean[256];
  private byte[] stream = new byte[0];

  /** How many of the stream's symbols the last {@link #alphabet} escaped. */
  private int escapedSymbols;

  /** The most bytes {@link #pack} writes for values of {@code valueBytes} bytes in all. */
  static int maxPackedBytes(int valueBytes) {
    return 2 + MOST_SYMBOLS + 2 * Integer.BYTES + valueBytes + GROUP + PADDING_BYTES;
  }

  /**
   * Packs the {@code length} bytes of {@code rows} values at the start of {@code values}, whose
   * {@code rows + 1} 32-bit offsets are at {@code offsetsAddress}, into {@code target} at {@code
   * at} (room for {@link #maxPackedBytes}); returns the bytes written, or -1 when the values after
   * their prefix use more than {@value #MOST_SYMBOLS} distinct bytes and more than one symbol in
   * {@value #ESCAPED_SHARE_DIVISOR} would be escaped (or the offsets do not span the values from
   * 0).
   */
  int pack(byte[] values, int length, long offsetsAddress, int rows, byte[] target, int at) {
    if (MemoryUtil.getInt(offsetsAddress) != 0
        || MemoryUtil.getInt(offsetsAddress + (long) rows * Integer.BYTES) != length) {
      return -1;
    }
    int prefix = commonPrefix(values, offsetsAddress, rows);
    int count = gatherSymbols(values, length, offsetsAddress, rows, prefix);
    int alphabet = alphabet(count);
    if (alphabet < 0) {
      return -1;
    }
    boolean escaping = escapedSymbols > 0;
    int width =
        escaping ? MAX_WIDTH : alphabet <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(alphabet - 1);
    int position = at;
    target[position++] = (byte) (escaping ? width | ESCAPING : width);
    target[position++] = (byte) alphabet;
    for (int code = 0; code < alphabet; code++) {
      target[position++] = (byte) symbols[code];
    }
    RunFormat.putInt(target, position, prefix);
    position += Integer.BYTES;
    if (prefix > 0) {
      System.arraycopy(values, 0, target, position, prefix);
      position += prefix;
    }
    if (escaping) {
      RunFormat.putInt(target, position, escapedSymbols);
      position += Integer.BYTES;
      for (int index = 0; index < count; index++) {
        if (escaped[stream[index] & 0xff]) {
          target[position++] = stream[index];
        }
      }
    }
    if (width > 0) {
      for (int group = 0; group < count; group += GROUP) {
        long eight = RunFormat.getLong(stream, group);
        long bits = 0;
        for (int symbol = 0; symbol < GROUP; symbol++) {
          bits |= codes[(int) (eight >>> (symbol * Byte.SIZE)) & 0xff] << (symbol * width);
        }
        RunFormat.putLong(target, position, bits);
        position += width;
      }
    }
    Arrays.fill(target, position, position + PADDING_BYTES, (byte) 0);
    return position + PADDING_BYTES - at;
  }

  /**
   * Writes the {@code length} bytes of {@code rows} values packed in the {@code packedLength} bytes
   * at {@code offset} of {@code packed} to the start of {@code target} (room for {@code length +}
   * {@value #GROUP} bytes); their offsets, already restored, are at {@code offsetsAddress}.
   *
   * @throws IllegalArgumentException when the packed bytes do not hold such values
   */
  void unpack(
      byte[] packed,
      int offset,
      int packedLength,
      long offsetsAddress,
      int rows,
      int length,
      byte[] target) {
    int end = offset + packedLength;
    if (MemoryUtil.getInt(offsetsAddress) != 0
        || MemoryUtil.getInt(offsetsAddress + (long) rows * Integer.BYTES) != length) {
      throw new IllegalArgumentException("packed strings' offsets do not span their bytes");
    }
    if (packedLength < 2 + Integer.BYTES + PADDING_BYTES) {
      throw new IllegalArgumentException("packed strings are cut short");
    }
    boolean escaping = (packed[offset] & ESCAPING) != 0;
    int width = packed[offset] & ~ESCAPING & 0xff;
    int alphabet = packed[offset + 1] & 0xff;
    if (width > MAX_WIDTH
        || alphabet > MOST_SYMBOLS
        || alphabet > (1 << width)
        || (escaping && (width != MAX_WIDTH || alphabet > ESCAPE))) {
      throw new IllegalArgumentException(
          "packed strings claim " + alphabet + " symbols in " + width + " bits");
    }
    int position = offset + 2;
    int symbolsAt = position;
    position += alphabet;
    int prefix = position + Integer.BYTES <= end ? RunFormat.getInt(packed, position) : -1;
    position += Integer.BYTES;
    int prefixAt = position;
    if (prefix < 0 || (long) position + prefix > end) {
      throw new IllegalArgumentException("packed strings claim a prefix of " + prefix + " bytes");
    }
    position += prefix;
    int nonEmpty = 0;
    for (int row = 0; row < rows; row++) {
      int valueLength = valueLength(offsetsAddress, row);
      if (valueLength < 0 || (valueLength > 0 && valueLength < prefix)) {
        throw new IllegalArgumentException("a packed string is shorter than its prefix");
      }
      nonEmpty += valueLength > 0 ? 1 : 0;
    }
    long count = length - (long) nonEmpty * prefix;
    long groups = (count + GROUP - 1) / GROUP;
    if (count < 0 || (alphabet == 0 && count > 0)) {
      throw new IllegalArgumentException("packed strings hold no symbols for their values");
    }
    int escapes = 0;
    int escapesAt = position;
    if (escaping) {
      escapes = position + Integer.BYTES <= end ? RunFormat.getInt(packed, position) : -1;
      position += Integer.BYTES;
      escapesAt = position;
      if (escapes < 0 || escapes > count || (long) position + escapes > end) {
        throw new IllegalArgumentException("packed strings claim " + escapes + " escaped symbols");
      }
      position += escapes;
    }
    if (position + groups * width + PADDING_BYTES != end) {
      throw new IllegalArgumentException(
          "packed strings hold " + packedLength + " bytes, not the " + count + " symbols claimed");
    }
    byte[] decoded = prefix == 0 ? target : streamOf((int) count);
    if (width == 0) {
      Arrays.fill(decoded, 0, (int) count, count == 0 ? 0 : packed[symbolsAt]);
    } else if (escaping) {
      decodeEscaping(
          packed, position, symbolsAt, alphabet, (int) count, escapesAt, escapes, decoded);
    } else {
      decodeGroups(packed, position, symbolsAt, alphabet, width, (int) groups, decoded);
    }
    if (prefix > 0) {
      // each value's words run past its end into the next value's room, which that one overwrites;
      // the prefix's into the packed groups, the symbols' into the stream's zeroed group
      int from = 0;
      int to = 0;
      for (int row = 0; row < rows; row++) {
        int valueLength = valueLength(offsetsAddress, row);
        if (valueLength > 0) {
          copyWords(packed, prefixAt, target, to, prefix);
          copyWords(decoded, from, target, to + prefix, valueLength - prefix);
          from += valueLength - prefix;
          to += valueLength;
        }
      }
    }
  }

  /**
   * Reads the {@code alphabet} symbols at {@code symbolsAt} into {@link #symbols}, in code order.
   */
  private void loadSymbols(byte[] packed, int symbolsAt, int alphabet) {
    Arrays.fill(symbols, 0);
    for (int code = 0; code < alphabet; code++) {
      symbols[code] = packed[symbolsAt + code] & 0xff;
    }
  }

  private void decodeGroups(
      byte[] packed, int position, int symbolsAt, int alphabet, int width, int groups, byte[] to) {
    loadSymbols(packed, symbolsAt, alphabet);
    int mask = (1 << width) - 1;
    int from = position;
    int written = 0;
    for (int group = 0; group < groups; group++) {
      long bits = RunFormat.getLong(packed, from);
      from += width;
      long bytes = 0;
      for (int symbol = 0; symbol < GROUP; symbol++) {
        int code = (int) (bits >>> (symbol * width)) & mask;
        bytes |= symbols[code] << (symbol * Byte.SIZE);
      }
      RunFormat.putLong(to, written, bytes);
      written += GROUP;
    }
  }

  /**
   * Decodes {@code count} symbols of {@value #MAX_WIDTH} bits, taking each escaped one from the
   * {@code escapes} bytes at {@code escapesAt}, in order.
   */
  private void decodeEscaping(
      byte[] packed,
      int position,
      int symbolsAt,
      int alphabet,
      int count,
      int escapesAt,
      int escapes,
      byte[] to) {
    loadSymbols(packed, symbolsAt, alphabet);
    int mask = (1 << MAX_WIDTH) - 1;
    int from = position;
    int written = 0;
    int escape = escapesAt;
    int escapesEnd = escapesAt + escapes;
    while (written < count) {
      long bits = RunFormat.getLong(packed, from);
      from += MAX_WIDTH;
      for (int symbol = 0; symbol < GROUP && written < count; symbol++) {
        int code = (int) (bits >>> (symbol * MAX_WIDTH)) & mask;
        if (code != ESCAPE) {
          to[written++] = (byte) symbols[code];
        } else if (escape < escapesEnd) {
          to[written++] = packed[escape++];
        } else {
          throw new IllegalArgumentException("packed strings escape more symbols than they hold");
        }
      }
    }
    if (escape != escapesEnd) {
      throw new IllegalArgumentException("packed strings hold escaped symbols they do not use");
    }
    Arrays.fill(to, written, written + GROUP, (byte) 0);
  }

  /**
   * The bytes every non-empty value of the batch starts with, at most the shortest non-empty
   * value's length.
   */
  private static int commonPrefix(byte[] values, long offsetsAddress, int rows) {
    int first = -1;
    int prefix = 0;
    for (int row = 0; row < rows; row++) {
      int start = MemoryUtil.getInt(offsetsAddress + (long) row * Integer.BYTES);
      int valueLength = valueLength(offsetsAddress, row);
      if (valueLength == 0) {
        continue;
      }
      if (first < 0) {
        first = start;
        prefix = valueLength;
        continue;
      }
      int limit = Math.min(prefix, valueLength);
      int same = Arrays.mismatch(values, first, first + limit, values, start, start + limit);
      prefix = same < 0 ? limit : same;
      if (prefix == 0) {
        return 0;
      }
    }
    return prefix;
  }

  /**
   * Copies the bytes after the prefix of every non-empty value into the stream, then zeros up to
   * the next whole group; returns how many.
   */
  private int gatherSymbols(byte[] values, int length, long offsetsAddress, int rows, int prefix) {
    byte[] gathered = streamOf(length);
    int count;
    if (prefix == 0) {
      System.arraycopy(values, 0, gathered, 0, length);
      count = length;
    } else {
      count = 0;
      for (int row = 0; row < rows; row++) {
        int start = MemoryUtil.getInt(offsetsAddress + (long) row * Integer.BYTES);
        int valueLength = valueLength(offsetsAddress, row);
        if (valueLength == 0) {
          continue;
        }
        int symbols = valueLength - prefix;
        if (start + prefix + symbols + Long.BYTES <= values.length) {
          // words past the value's end land in the next value's room or the group's zeros below
          copyWords(values, start + prefix, gathered, count, symbols);
        } else {
          System.arraycopy(values, start + prefix, gathered, count, symbols);
        }
        count += symbols;
      }
    }
    Arrays.fill(gathered, count, count + GROUP, (byte) 0);
    return count;
  }

  /**
   * Gives each distinct byte among the first {@code count} of the stream a code, in byte order, in
   * {@link #codes} and {@link #symbols}; returns how many codes there are. Past {@value
   * #MOST_SYMBOLS} distinct bytes, the {@value #MOST_SYMBOLS} - 1 most frequent get codes (ties in
   * byte order), the others the escape code ({@link #escaped}, {@link #escapedSymbols}); returns -1
   * when they would be more than one symbol in {@value #ESCAPED_SHARE_DIVISOR}.
   */
  private int alphabet(int count) {
    Arrays.fill(frequencies, 0);
    Arrays.fill(escaped, false);
    // bytes absent from the alphabet (the zeros that fill the last group) take code 0
    Arrays.fill(codes, 0);
    escapedSymbols = 0;
    for (int index = 0; index < count; index++) {
      frequencies[stream[index] & 0xff]++;
    }
    int distinct = 0;
    for (int value = 0; value < 256; value++) {
      if (frequencies[value] > 0) {
        sortedFrequencies[distinct++] = frequencies[value];
      }
    }
    if (distinct <= MOST_SYMBOLS) {
      int alphabet = 0;
      for (int value = 0; value < 256; value++) {
        if (frequencies[value] > 0) {
          codes[value] = alphabet;
          symbols[alphabet++] = value;
        }
      }
      return alphabet;
    }
    Arrays.sort(sortedFrequencies, 0, distinct);
    // the least frequency that still gets a code; of the bytes that have it, the first ones do
    int least = sortedFrequencies[distinct - ESCAPE];
    int aboveLeast = 0;
    for (int value = 0; value < 256; value++) {
      aboveLeast += frequencies[value] > least ? 1 : 0;
    }
    int atLeastToKeep = ESCAPE - aboveLeast;
    int alphabet = 0;
    for (int value = 0; value < 256; value++) {
      int frequency = frequencies[value];
      if (frequency > least || (frequency == least && atLeastToKeep-- > 0)) {
        codes[value] = alphabet;
        symbols[alphabet++] = value;
      } else if (frequency > 0) {
        codes[value] = ESCAPE;
        escaped[value] = true;
        escapedSymbols += frequency;
      }
    }
    return (long) escapedSymbols * ESCAPED_SHARE_DIVISOR > count ? -1 : alphabet;
  }

  /**
   * Copies {@code length} bytes in whole words: up to 7 bytes past the end of both are read and
   * written too, which both arrays must have room for.
   */
  private static void copyWords(byte[] from, int fromAt, byte[] to, int toAt, int length) {
    for (int index = 0; index < length; index += Long.BYTES) {
      RunFormat.putLong(to, toAt + index, RunFormat.getLong(from, fromAt + index));
    }
  }

  private byte[] streamOf(int length) {
    if (stream.length < length + GROUP) {
      stream = new byte[Math.max(length + GROUP, 2 * stream.length)];
    }
    return stream;
  }

  private static int valueLength(long offsetsAddress, int row) {
    long at = offsetsAddress + (long) row * Integer.BYTES;
    return MemoryUtil.getInt(at + Integer.BYTES) - MemoryUtil.getInt(at);
  }
}
