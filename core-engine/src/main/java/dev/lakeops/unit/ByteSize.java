package dev.lakeops.unit;

import static java.util.Objects.requireNonNull;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A size in bytes, parsed from human input such as {@code 256MB}, {@code 1.5g} or {@code 1024}. */
public record ByteSize(long bytes) implements Comparable<ByteSize> {
  private static final Pattern SIZE =
      Pattern.compile("\\s*(\\d+(?:\\.\\d+)?)\\s*([kmgtp]?)(i?b?)\\s*", Pattern.CASE_INSENSITIVE);

  public ByteSize {
    if (bytes < 0) {
      throw new IllegalArgumentException("Size must not be negative: " + bytes);
    }
  }

  public static ByteSize ofBytes(long bytes) {
    return new ByteSize(bytes);
  }

  public static ByteSize ofMegabytes(long megabytes) {
    return new ByteSize(megabytes * 1024 * 1024);
  }

  /**
   * Parses {@code 512}, {@code 64KB}, {@code 256MB}, {@code 2GiB}, {@code 1.5g}; units are binary.
   */
  public static ByteSize parse(String text) {
    requireNonNull(text, "text is null");
    Matcher matcher = SIZE.matcher(text);
    if (!matcher.matches()) {
      throw new IllegalArgumentException(
          "Invalid size '"
              + text
              + "': use a number with an optional unit, e.g. 256MB, 1GB, 1048576");
    }
    double number = Double.parseDouble(matcher.group(1));
    String unit = matcher.group(2).toLowerCase(Locale.ROOT);
    int shift =
        switch (unit) {
          case "" -> 0;
          case "k" -> 10;
          case "m" -> 20;
          case "g" -> 30;
          case "t" -> 40;
          default -> 50;
        };
    return new ByteSize((long) (number * (1L << shift)));
  }

  public long toMegabytes() {
    return bytes / (1024 * 1024);
  }

  @Override
  public int compareTo(ByteSize other) {
    return Long.compare(bytes, other.bytes);
  }

  @Override
  public String toString() {
    if (bytes >= (1L << 30) && bytes % (1L << 20) == 0) {
      return String.format(Locale.ROOT, "%.1fGB", bytes / (double) (1L << 30));
    }
    if (bytes >= (1L << 20)) {
      return String.format(Locale.ROOT, "%.1fMB", bytes / (double) (1L << 20));
    }
    if (bytes >= (1L << 10)) {
      return String.format(Locale.ROOT, "%.1fKB", bytes / (double) (1L << 10));
    }
    return bytes + "B";
  }
}
