package dev.lakeops.verify;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How a compaction proves, before its commit, that each file group wrote exactly the live rows it
 * read.
 *
 * <ul>
 *   <li>{@link #COUNTS}: rows read against the input files' record counts in the manifests, rows
 *       written (from the written Parquet footers) against rows read less rows the deletes removed,
 *       and per column value and null counts against the input files' metrics;
 *   <li>{@link #CHECKSUM}: the counts, and an order-independent 64-bit checksum of every column of
 *       every live row, computed as rows are read and again as they are handed to the writer;
 *   <li>{@link #OFF}: nothing is checked.
 * </ul>
 */
public enum VerificationMode {
  OFF("off"),
  COUNTS("counts"),
  CHECKSUM("checksum");

  /** The key that sets the mode in a maintenance policy ({@code compact.verify}). */
  public static final String POLICY_KEY = "compact.verify";

  private final String displayName;

  VerificationMode(String displayName) {
    this.displayName = displayName;
  }

  /** The name used on the command line, in policies, procedures and JSON. */
  public String displayName() {
    return displayName;
  }

  public boolean countsRows() {
    return this != OFF;
  }

  public boolean checksumsRows() {
    return this == CHECKSUM;
  }

  /**
   * The mode named {@code text} (any case, surrounding blanks ignored).
   *
   * @throws IllegalArgumentException naming the value and the choices
   */
  public static VerificationMode parse(String text) {
    String name = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
    for (VerificationMode mode : values()) {
      if (mode.displayName.equals(name)) {
        return mode;
      }
    }
    throw new IllegalArgumentException(
        "Invalid verify value '" + text + "': use one of " + choices());
  }

  /** {@code counts, checksum, off}, as error messages list them. */
  public static String choices() {
    return Arrays.stream(new VerificationMode[] {COUNTS, CHECKSUM, OFF})
        .map(VerificationMode::displayName)
        .collect(Collectors.joining(", "));
  }

  @Override
  public String toString() {
    return displayName;
  }
}
