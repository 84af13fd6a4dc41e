package dev.lakeops.rewrite.sort;

import dev.lakeops.memory.ValueWords;
import java.util.Arrays;
import org.apache.arrow.memory.util.MemoryUtil;

/**
 * Finds whether the values of one string or binary column of a run batch are few distinct values
 * repeated (a country, an event type, a user agent), and if so gives each row the id of its value:
 * stored as a dictionary and one byte a row, such a column takes a fraction of its bytes and of the
 * compressor's time. A column of mostly distinct values (ids, hashes, free text) is given up on
 * after its first {@value #TRIAL_ROWS} rows.
 */
final class RunDictionary {
  /** Ids are one byte. */
  static final int MOST_ENTRIES = 256;

  private static final int TRIAL_ROWS = 128;
  private static final int MOST_ENTRIES_IN_TRIAL = 32;
  private static final int SLOTS = 1024;

  private final int[] slots = new int[SLOTS];
  private final int[] entryStart = new int[MOST_ENTRIES];
  private final int[] entryLength = new int[MOST_ENTRIES];
  private byte[] ids = new byte[0];
  private int entries;
  private long entryBytes;

  /**
   * Builds the dictionary of {@code values} values at {@code dataAddress} whose 32-bit offsets are
   * at {@code offsetsAddress}; {@code false} when they are too many distinct values to gain.
   */
  boolean build(long offsetsAddress, long dataAddress, int values) {
    if (values < TRIAL_ROWS) {
      return false;
    }
    if (ids.length < values) {
      ids = new byte[values];
    }
    Arrays.fill(slots, 0);
    entries = 0;
    entryBytes = 0;
    int start = MemoryUtil.getInt(offsetsAddress);
    int previousStart = start;
    int previousLength = -1;
    int previousId = 0;
    for (int row = 0; row < values; row++) {
      int end = MemoryUtil.getInt(offsetsAddress + (long) (row + 1) * Integer.BYTES);
      int length = end - start;
      // a run holds its leading sort column in order: most values equal the one before
      int id =
          length == previousLength
                  && equal(dataAddress + previousStart, dataAddress + start, length)
              ? previousId
              : idOf(dataAddress, start, length);
      if (id < 0 || (row == TRIAL_ROWS - 1 && entries > MOST_ENTRIES_IN_TRIAL)) {
        return false;
      }
      ids[row] = (byte) id;
      previousStart = start;
      previousLength = length;
      previousId = id;
      start = end;
    }
    long valueBytes =
        MemoryUtil.getInt(offsetsAddress + (long) values * Integer.BYTES)
            - MemoryUtil.getInt(offsetsAddress);
    // the dictionary and the ids, against the values and their offsets
    return entryBytes + (long) Integer.BYTES * entries + values
        < (valueBytes + (long) Integer.BYTES * values) / 2;
  }

  int entries() {
    return entries;
  }

  /** Where entry {@code entry}'s bytes start in the column's data buffer. */
  int entryStart(int entry) {
    return entryStart[entry];
  }

  int entryLength(int entry) {
    return entryLength[entry];
  }

  /** Bytes of all entries together. */
  long entryBytes() {
    return entryBytes;
  }

  /** Each row's entry, as an unsigned byte; valid for the rows of the last {@link #build}. */
  byte[] ids() {
    return ids;
  }

  /** The id of the value of {@code length} bytes at {@code start}, added if new; -1 when full. */
  private int idOf(long dataAddress, int start, int length) {
    int slot = hash(dataAddress + start, length) & (SLOTS - 1);
    while (slots[slot] != 0) {
      int entry = slots[slot] - 1;
      if (entryLength[entry] == length
          && equal(dataAddress + entryStart[entry], dataAddress + start, length)) {
        return entry;
      }
      slot = (slot + 1) & (SLOTS - 1);
    }
    if (entries == MOST_ENTRIES) {
      return -1;
    }
    entryStart[entries] = start;
    entryLength[entries] = length;
    entryBytes += length;
    slots[slot] = ++entries;
    return entries - 1;
  }

  private static int hash(long address, int length) {
    long hash = length * 0x9E3779B97F4A7C15L;
    int index = 0;
    for (; index + Long.BYTES <= length; index += Long.BYTES) {
      hash = (hash ^ MemoryUtil.getLong(address + index)) * 0xBF58476D1CE4E5B9L;
    }
    if (index < length) {
      hash = (hash ^ ValueWords.tail(address, length)) * 0x94D049BB133111EBL;
    }
    return (int) (hash ^ (hash >>> 29) ^ (hash >>> 47));
  }

  private static boolean equal(long left, long right, int length) {
    int index = 0;
    for (; index + Long.BYTES <= length; index += Long.BYTES) {
      if (MemoryUtil.getLong(left + index) != MemoryUtil.getLong(right + index)) {
        return false;
      }
    }
    for (; index < length; index++) {
      if (MemoryUtil.getByte(left + index) != MemoryUtil.getByte(right + index)) {
        return false;
      }
    }
    return true;
  }
}
