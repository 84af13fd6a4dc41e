package dev.lakeops.rewrite.encode;

import java.util.Arrays;

/**
 * A dictionary of fixed-width values (ints, longs, and floats or doubles by their raw bits) kept as
 * {@code long}s: ids in order of first appearance, looked up through an open-addressing table of
 * primitive arrays (no boxing, no linked entries).
 */
final class LongDictionary {
  private static final int EMPTY = -1;
  private static final long GOLDEN = 0x9E3779B97F4A7C15L;

  private long[] slotKeys;
  private int[] slotIds;
  private int shift;
  private long[] values = new long[256];
  private int size;

  LongDictionary() {
    allocateSlots(1024);
  }

  int size() {
    return size;
  }

  long value(int id) {
    return values[id];
  }

  /** The id of {@code key}, added as the next id if the dictionary does not hold it yet. */
  int idOf(long key) {
    int mask = slotIds.length - 1;
    int slot = (int) ((key * GOLDEN) >>> shift);
    while (true) {
      int id = slotIds[slot];
      if (id == EMPTY) {
        return add(key, slot);
      }
      if (slotKeys[slot] == key) {
        return id;
      }
      slot = (slot + 1) & mask;
    }
  }


  private int add(long key, int slot) {
    int id = size++;
    if (id == values.length) {
      values = Arrays.copyOf(values, 2 * values.length);
    }
    values[id] = key;
    slotKeys[slot] = key;
    slotIds[slot] = id;
    if (2 * size > slotIds.length) {
      rehash();
    }
    return id;
  }

  private void rehash() {
    allocateSlots(2 * slotIds.length);
    int mask = slotIds.length - 1;
    for (int id = 0; id < size; id++) {
      long key = values[id];
      int slot = (int) ((key * GOLDEN) >>> shift);
      while (slotIds[slot] != EMPTY) {
        slot = (slot + 1) & mask;
      }
      slotKeys[slot] = key;
      slotIds[slot] = id;
    }
  }

  private void allocateSlots(int capacity) {
    slotKeys = new long[capacity];
    slotIds = new int[capacity];
    Arrays.fill(slotIds, EMPTY);
    shift = Long.SIZE - Integer.numberOfTrailingZeros(capacity);
  }
}
