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
  static {
    // before() and markExhausted() read and write the two prefix words by hand
    if (SortKeys.PREFIX_WORDS != 2) {
      throw new ExceptionInInitializerError(
          "LoserTree compares 2 prefix words, not " + SortKeys.PREFIX_WORDS);
    }
  }

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
    for (int source = 0; source < sources; source++) {
      if (exhausted[source]) {
        markExhausted(source);
      }
    }
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
    if (winnerExhausted) {
      exhausted[source] = true;
      markExhausted(source);
    }
    int node = (source + sources) >>> 1;
    int current = source;
    while (node > 0) {
      // selects instead of a branch: which side wins is as good as random, so a branch would
      // mispredict about every other match
      int challenger = losers[node];
      boolean challengerWins = before(challenger, current);
      losers[node] = challengerWins ? current : challenger;
      current = challengerWins ? challenger : current;
      node >>>= 1;
    }
    winner = current;
  }

  /**
   * Gives an exhausted source the largest prefix words, so it loses every match its words decide;
   * matches its words tie are settled by {@link #exhausted} (a live key may start with those
   * bytes).
   */
  private void markExhausted(int source) {
    heads[source * SortKeys.PREFIX_SLOTS] = -1L;
    heads[source * SortKeys.PREFIX_SLOTS + 1] = -1L;
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
    int leftSlot = left * SortKeys.PREFIX_SLOTS;
    int rightSlot = right * SortKeys.PREFIX_SLOTS;
    long leftHigh = heads[leftSlot];
    long rightHigh = heads[rightSlot];
    long leftLow = heads[leftSlot + 1];
    long rightLow = heads[rightSlot + 1];
    boolean highEqual = leftHigh == rightHigh;
    if (highEqual & leftLow == rightLow) {
      return beforeOnTiedWords(left, right);
    }
    // unsigned order by flipping the sign bits; & and | rather than && and ||, so no branches
    boolean highBefore = (leftHigh ^ Long.MIN_VALUE) < (rightHigh ^ Long.MIN_VALUE);
    boolean lowBefore = (leftLow ^ Long.MIN_VALUE) < (rightLow ^ Long.MIN_VALUE);
    return highBefore | (highEqual & lowBefore);
  }

  private boolean beforeOnTiedWords(int left, int right) {
    if (exhausted[left]) {
      return false;
    }
    if (exhausted[right]) {
      return true;
    }
    int byKey =
        SortKeys.comparePrefixes(
            heads, left * SortKeys.PREFIX_SLOTS, heads, right * SortKeys.PREFIX_SLOTS);
    if (byKey == SortKeys.UNDECIDED) {
      byKey = fullKeyOrder.compare(left, right);
    }
    return byKey != 0 ? byKey < 0 : left < right;
  }
}
