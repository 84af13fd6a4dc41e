package dev.lakeops.io;

import static java.util.Objects.requireNonNull;

/**
 * One input file to fetch ahead.
 *
 * @param location the file's location
 * @param length its length in bytes, as the table's metadata records it
 * @param group the index of the file group that reads it; inputs are fetched in the order given
 */
public record PrefetchInput(String location, long length, int group) {
  public PrefetchInput {
    requireNonNull(location, "location is null");
    if (length < 0) {
      throw new IllegalArgumentException("length must not be negative: " + length);
    }
  }
}
