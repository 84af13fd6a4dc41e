package dev.lakeops.rewrite.copy;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Builds one dictionary from the dictionaries of several column chunks, in order, and tells each
 * chunk how its indices map into the merged dictionary. Only dictionary entries are hashed, never
 * data values.
 */
final class DictionaryMerger {
  private final long maxBytes;
  private final Map<Entry, Integer> indexByEntry = new HashMap<>();
  private final ByteArrayOutputStream merged = new ByteArrayOutputStream();
  private int chunksMerged;
  private boolean full;

  DictionaryMerger(long maxBytes) {
    this.maxBytes = maxBytes;
  }

  /**
   * Adds a chunk's dictionary if the merged dictionary stays within its limit (the first chunk is
   * always accepted: its dictionary exists already). After the first refusal every later chunk is
   * refused.
   *
   * @return for each index of {@code values}, its index in the merged dictionary; empty if the
   *     dictionary was not added
   */
  Optional<int[]> add(DictionaryValues values) {
    if (full) {
      return Optional.empty();
    }
    int[] remap = new int[values.size()];
    List<Entry> added = new ArrayList<>();
    Map<Entry, Integer> pending = new HashMap<>();
    long addedBytes = 0;
    for (int index = 0; index < values.size(); index++) {
      Entry entry = new Entry(values.bytes(), values.entryOffset(index), values.entryLength(index));
      Integer existing = indexByEntry.get(entry);
      if (existing == null) {
        existing = pending.get(entry);
      }
      if (existing == null) {
        existing = indexByEntry.size() + added.size();
        pending.put(entry, existing);
        added.add(entry);
        addedBytes += entry.length();
      }
      remap[index] = existing;
    }
    if (chunksMerged > 0 && merged.size() + addedBytes > maxBytes) {
      // Once one dictionary did not fit, stop hashing the following ones: they would mostly be
      // rejected too, and hashing them costs more than writing their pages as PLAIN.
      full = true;
      return Optional.empty();
    }
    for (Entry entry : added) {
      indexByEntry.put(entry, indexByEntry.size());
      merged.write(entry.bytes(), entry.offset(), entry.length());
    }
    chunksMerged++;
    return Optional.of(remap);
  }

  int entryCount() {
    return indexByEntry.size();
  }

  int chunksMerged() {
    return chunksMerged;
  }

  byte[] mergedPlainBytes() {
    return merged.toByteArray();
  }

  static boolean isIdentity(int[] remap) {
    for (int index = 0; index < remap.length; index++) {
      if (remap[index] != index) {
        return false;
      }
    }
    return true;
  }

  /** A dictionary entry's PLAIN bytes, compared by content. */
  private record Entry(byte[] bytes, int offset, int length) {
    @Override
    public boolean equals(Object other) {
      return other instanceof Entry that
          && Arrays.equals(
              bytes, offset, offset + length, that.bytes, that.offset, that.offset + that.length);
    }

    @Override
    public int hashCode() {
      int hash = 1;
      for (int index = offset; index < offset + length; index++) {
        hash = 31 * hash + bytes[index];
      }
      return hash;
    }
  }
}
