package dev.lakeops.rewrite.encode;

import java.util.Arrays;

/**
 * A dictionary of fixed-width values (ints, longs, and floats or doubles by their raw bits) kept as
 * {@code long}s: ids in order of first appearance, looked up through an open-addressing table of
 * primitive arrays (no boxing, no linked entries). Each slot holds its key and its id side by side,
 * so a lookup in a table larger than the processor's cache misses it once, not twice.
 */
final class LongDictionary {
  /** A slot's id word holds the id plus one: zero marks an empty slot. */
  private static final long EMPTY = 0;

  private static final long GOLDEN = 0x9E3779B97F4A7C15L;

  /**
   * Slot {@code s} is {@code slots[2 * s]} (the key) and {@code slots[2 * s + 1]} (its id plus
   * one).
   */
  private long[] slots;

  private int slotMask;
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
    int slot = (int) ((key * GOLDEN) >>> shift);
    while (true) {
      long idPlusOne = slots[2 * slot + 1];
      if (idPlusOne == EMPTY) {
        return add(key, slot);
      }
      if (slots[2 * slot] == key) {
        return (int) idPlusOne - 1;
      }
      slot = (slot + 1) & slotMask;
    }
  }

  private int add(long key, int slot) {
    int id = size++;
    if (id == values.length) {
      values = Arrays.copyOf(values, 2 * values.length);
    }
    values[id] = key;
    slots[2 * slot] = key;
    slots[2 * slot + 1] = id + 1L;
    if (2 * size > slotMask + 1) {
      rehash();
    }
    return id;
  }

  private void rehash() {
    allocateSlots(2 * (slotMask + 1));
    for (int id = 0; id < size; id++) {
      long key = values[id];
      int slot = (int) ((key * GOLDEN) >>> shift);
      while (slots[2 * slot + 1] != EMPTY) {
        slot = (slot + 1) & slotMask;
      }
      slots[2 * slot] = key;
      slots[2 * slot + 1] = id + 1L;
    }
  }

  private void allocateSlots(int capacity) {
    slots = new long[2 * capacity];
    slotMask = capacity - 1;
    shift = Long.SIZE - Integer.numberOfTrailingZeros(capacity);
  }
}
