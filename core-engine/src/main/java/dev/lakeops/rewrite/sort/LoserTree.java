package dev.lakeops.rewrite.sort;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;

/**
 * A tournament tree of losers over {@code k} ordered sources: the source holding the smallest
 * current element is the winner, and after the winner moves on (or runs out) one replay along its
 * path to the root, {@code log2(k)} comparisons, finds the next winner; a binary heap needs about
 * twice as many. Ties go to the lower source index, so merges through it are stable.
 *
 * <p>The sources' current keys are compared by their prefix slots, which the sources keep in one
 * flat array ({@link SortKeys#PREFIX_SLOTS} per source, source {@code i} at {@code i *
 * PREFIX_SLOTS}); only when the prefixes cannot tell is the full-key order asked.
 */
final class LoserTree {
  /** Compares source {@code left}'s current full key with source {@code right}'s. */
  @FunctionalInterface
  interface SourceOrder {
    int compare(int left, int right);
  }

  private final int sources;
  private final long[] heads;
  private final SourceOrder fullKeyOrder;
  private final int[] losers;
  private final boolean[] exhausted;
  private int winner;

  /**
   * @param exhausted which sources are empty from the start (the array is copied)
   * @param heads the current key prefix of every source, kept up to date by the sources
   * @param fullKeyOrder the order of the sources' current full keys, for prefixes that tie
   */
  LoserTree(boolean[] exhausted, long[] heads, SourceOrder fullKeyOrder) {
    this.sources = exhausted.length;
    this.heads = requireNonNull(heads, "heads is null");
    this.fullKeyOrder = requireNonNull(fullKeyOrder, "fullKeyOrder is null");
    this.exhausted = Arrays.copyOf(exhausted, sources);
    this.losers = new int[Math.max(1, sources)];
    this.winner = sources == 0 ? -1 : play(1);
  }

  /** The source holding the smallest element, or -1 once every source has run out. */
  int winner() {
    return winner >= 0 && !exhausted[winner] ? winner : -1;
  }

  /** Replays after the winner moved to its next element, or ran out ({@code exhausted}). */
  void advanceWinner(boolean winnerExhausted) {
    int source = winner;
    exhausted[source] = winnerExhausted;
    int node = (source + sources) >>> 1;
    int current = source;
    while (node > 0) {
      if (before(losers[node], current)) {
        int swap = losers[node];
        losers[node] = current;
        current = swap;
      }
      node >>>= 1;
    }
    winner = current;
  }

  /** Plays the matches below {@code node}, recording losers; returns the winner. */
  private int play(int node) {
    if (node >= sources) {
      return node - sources;
    }
    int left = play(2 * node);
    int right = play(2 * node + 1);
    if (before(right, left)) {
      losers[node] = left;
      return right;
    }
    losers[node] = right;
    return left;
  }

  private boolean before(int left, int right) {
    if (exhausted[left]) {
      return false;
    }
    if (exhausted[right]) {
      return true;
    }
    int byKey = SortKeys.comparePrefixes(heads, left * SortKeys.PREFIX_SLOTS, heads, right * SortKeys.PREFIX_SLOTS);
    if (byKey == SortKeys.UNDECIDED) {
      byKey = fullKeyOrder.compare(left, right);
    }
    return byKey != 0 ? byKey < 0 : left < right;
  }
}
