package dev.lakeops.rewrite.encode;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A dictionary of variable-width values: ids in order of first appearance, the values' bytes kept
 * back to back in one array, looked up through an open-addressing table that also keeps each
 * entry's hash so most mismatches never compare bytes.
 */
final class BinaryDictionary {
  private static final int EMPTY = -1;
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long MULTIPLIER = 0x9E3779B97F4A7C15L;

  private final PageBytes bytes = new PageBytes(4096);
  private int[] offsets = new int[257];
  private int[] hashes = new int[256];
  private int[] slotIds;
  private int size;

  BinaryDictionary() {
    allocateSlots(1024);
  }

  int size() {
    return size;
  }

  /** Bytes of the PLAIN-encoded dictionary page: each value's 4-byte length, then its bytes. */
  long plainBytes() {
    return bytes.size() + (long) Integer.BYTES * size;
  }

  /** The bytes the values are kept in, back to back. */
  byte[] array() {
    return bytes.array();
  }

  /** Where value {@code id} starts in {@link #array()}. */
  int start(int id) {
    return offsets[id];
  }

  int length(int id) {
    return offsets[id + 1] - offsets[id];
  }

  /** Appends every value PLAIN-encoded, in id order, to {@code page}. */
  void writePlain(PageBytes page) {
    for (int id = 0; id < size; id++) {
      int start = offsets[id];
      int length = offsets[id + 1] - start;
      page.putInt(length);
      page.put(bytes.array(), start, length);
    }
  }

  /** The id of bytes {@code [offset, offset + length)} of {@code source}, added if new. */
  int idOf(byte[] source, int offset, int length) {
    int hash = hash(source, offset, length);
    int mask = slotIds.length - 1;
    int slot = hash & mask;
    byte[] held = bytes.array();
    while (true) {
      int id = slotIds[slot];
      if (id == EMPTY) {
        return add(source, offset, length, hash, slot);
      }
      if (hashes[id] == hash
          && offsets[id + 1] - offsets[id] == length
          && ByteRanges.equal(source, offset, held, offsets[id], length)) {
        return id;
      }
      slot = (slot + 1) & mask;
    }
  }

  private int add(byte[] source, int offset, int length, int hash, int slot) {
    int id = size++;
    if (id == hashes.length) {
      hashes = Arrays.copyOf(hashes, 2 * hashes.length);
      offsets = Arrays.copyOf(offsets, hashes.length + 1);
    }
    bytes.put(source, offset, length);
    offsets[id + 1] = bytes.size();
    hashes[id] = hash;
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
      int slot = hashes[id] & mask;
      while (slotIds[slot] != EMPTY) {
        slot = (slot + 1) & mask;
      }
      slotIds[slot] = id;
    }
  }

  private void allocateSlots(int capacity) {
    slotIds = new int[capacity];
    Arrays.fill(slotIds, EMPTY);
  }

  private static int hash(byte[] source, int offset, int length) {
    long hash = length * MULTIPLIER;
    int position = offset;
    int end = offset + length;
    for (; position + Long.BYTES <= end; position += Long.BYTES) {
      hash =
          Long.rotateLeft(hash ^ ((long) LONGS.get(source, position) * MULTIPLIER), 27)
              * 0x94D049BB133111EBL;
    }
    for (; position < end; position++) {
      hash = (hash ^ (source[position] & 0xFF)) * MULTIPLIER;
    }
    hash ^= hash >>> 31;
    hash *= 0xBF58476D1CE4E5B9L;
    return (int) (hash ^ (hash >>> 32));
  }
}
