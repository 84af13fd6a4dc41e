package dev.lakeops.learn;

import dev.lakeops.compact.CompactionResult;
import dev.lakeops.compact.Strategy;
import java.util.Locale;

/** How a compaction moves bytes; each path has its own speed and memory appetite. */
public enum RewritePath {
  /** Row groups and pages copied without decoding (bin-pack of files already encoded right). */
  DECODE_FREE,
  /** Decoded to columns and re-encoded (bin-pack that must decode: deletes, other encodings). */
  COLUMNAR,
  /** Sorted or z-ordered: decoded, merged through the external sort, re-encoded. */
  SORT;

  /** The label in the store and on screen: {@code decode-free}, {@code columnar}, {@code sort}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  public static RewritePath parse(String label) {
    return valueOf(label.strip().toUpperCase(Locale.ROOT).replace('-', '_'));
  }

  /**
   * The path a finished compaction took: sort for sort and zorder, else whichever moved most bytes.
   */
  public static RewritePath of(CompactionResult result) {
    String strategy = result.strategy().toLowerCase(Locale.ROOT);
    if (strategy.equals("sort") || strategy.equals("zorder")) {
      return SORT;
    }
    return result.copiedBytes() >= result.decodedBytes() && result.copiedBytes() > 0
        ? DECODE_FREE
        : COLUMNAR;
  }

  /**
   * The path a compaction of {@code strategy} is expected to take before it runs: sort for sort and
   * zorder; for bin-pack the path its previous bin-pack took ({@code lastBinpackPath}).
   */
  public static RewritePath expected(Strategy strategy, RewritePath lastBinpackPath) {
    return strategy == Strategy.SORT || strategy == Strategy.ZORDER ? SORT : lastBinpackPath;
  }
}
