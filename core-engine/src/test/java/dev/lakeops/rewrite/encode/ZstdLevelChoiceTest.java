package dev.lakeops.rewrite.encode;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Each column's pages come out at the table's level, the level below or level 1, whichever made the
 * column's last probed page smallest, and every frame holds its page.
 */
class ZstdLevelChoiceTest {
  private static final int PAGE_BYTES = 1 << 17;
  private static final String[] VOCABULARY = vocabulary();
  private static final int PAGES = 2 * ZstdLevelChoice.PROBE_INTERVAL + 3;

  @Test
  void pagesOfAmountsAreCompressedAtTheLevelBelowSmallerThanAtTheTablesLevel() {
    Random random = new Random(11);
    try (ZstdLevelChoice levels = new ZstdLevelChoice(3)) {
      Written amounts = written(levels, () -> amountsPage(random));
      assertThat(amounts.bytes).isLessThan(amounts.atLevel3).isLessThanOrEqualTo(amounts.atLevel2);
    }
  }

  @Test
  void pagesOfIdsOfAFewMillionAreCompressedAtLevelOneSmallerThanAtTheLevelsAbove() {
    Random random = new Random(15);
    try (ZstdLevelChoice levels = new ZstdLevelChoice(3)) {
      Written ids = written(levels, () -> idsPage(random));
      assertThat(ids.bytes).isLessThan(ids.atLevel2).isLessThanOrEqualTo(ids.atLevel1);
    }
  }

  @Test
  void pagesThatGainFromAHigherLevelKeepIt() {
    Random random = new Random(12);
    try (ZstdLevelChoice levels = new ZstdLevelChoice(3)) {
      Written words = written(levels, () -> wordsPage(random));
      // free text: level 2 writes the smallest frames, level 1 more than 1/64 larger
      assertThat(words.atLevel1)
          .isGreaterThan(words.atLevel2 + words.atLevel2 / ZstdLevelChoice.NEAR_SMALLEST_DIVISOR);
      assertThat(words.bytes).isEqualTo(Math.min(words.atLevel2, words.atLevel3));
    }
  }

  @Test
  void columnsSharingOneChoiceDecideApart() {
    Random random = new Random(13);
    try (ZstdLevelChoice levels = new ZstdLevelChoice(3)) {
      Written amounts = new Written(levels);
      Written words = new Written(levels);
      for (int page = 0; page < PAGES; page++) {
        amounts.add(amountsPage(random));
        words.add(wordsPage(random));
      }
      assertThat(amounts.bytes).isLessThan(amounts.atLevel3);
      assertThat(words.bytes).isLessThan(words.atLevel1);
    }
  }

  @Test
  void aLowerLevelWithinASixtyFourthOfTheSmallestFrameWins() {
    Random random = new Random(15);
    try (ZstdLevelChoice levels = new ZstdLevelChoice(3)) {
      Written longs = written(levels, () -> smallLongsPage(random));
      // level 3 writes the smallest frames, the lower levels ones barely larger: a lower one wins
      assertThat(longs.atLevel1)
          .isGreaterThan(longs.atLevel3)
          .isLessThanOrEqualTo(
              longs.atLevel3 + longs.atLevel3 / ZstdLevelChoice.NEAR_SMALLEST_DIVISOR);
      assertThat(longs.bytes)
          .isGreaterThan(longs.atLevel3)
          .isLessThanOrEqualTo(
              longs.atLevel3 + longs.atLevel3 / ZstdLevelChoice.NEAR_SMALLEST_DIVISOR);
    }
  }

  @Test
  void pagesLongerThanTheSampleTakeTheLevelTheirLeadingBytesChose() {
    Random random = new Random(16);
    int pageBytes = 4 * ZstdLevelChoice.PROBE_SAMPLE_BYTES;
    try (ZstdLevelChoice levels = new ZstdLevelChoice(3)) {
      ZstdLevelChoice.Column ids = levels.newColumn();
      ZstdLevelChoice.Column words = levels.newColumn();
      for (int page = 0; page < 3; page++) {
        byte[] idsPage = longsPage(pageBytes, () -> 40_000_000L + random.nextInt(1 << 22));
        byte[] wordsPage = wordsPage(random, pageBytes);
        // ids of a few million: level 1's frame, as small as level 2's and 3's
        assertThat(compress(levels, ids, idsPage).length).isEqualTo(frameLength(idsPage, 1));
        // free text: not level 1, whose frames are more than 1/64 larger
        assertThat(compress(levels, words, wordsPage).length)
            .isIn(frameLength(wordsPage, 2), frameLength(wordsPage, 3));
      }
    }
  }

  @Test
  void aColumnWhoseProbesKeepItsLevelIsProbedLessOften() {
    Random random = new Random(17);
    try (ZstdLevelChoice levels = new ZstdLevelChoice(3)) {
      ZstdLevelChoice.Column column = levels.newColumn();
      List<Integer> probedPages = new ArrayList<>();
      for (int page = 0; page < 200; page++) {
        compress(levels, column, idsPage(random));
        if (column.pagesUntilProbe() == 0) {
          probedPages.add(page + 1);
        }
      }
      // probes at pages 0, 16, 48, 112: each interval twice the last while the level holds
      assertThat(probedPages).containsExactly(16, 48, 112);
    }
  }

  @Test
  void levelOneHasNoLevelBelowToTry() {
    Random random = new Random(14);
    try (ZstdLevelChoice levels = new ZstdLevelChoice(1)) {
      byte[] bytes = amountsPage(random);
      assertThat(compress(levels, levels.newColumn(), bytes).length)
          .isEqualTo(frameLength(bytes, 1));
    }
  }

  /**
   * One column's pages through a shared choice: the bytes written, and what the whole column would
   * take at levels 3, 2 and 1 (the same pages compressed on their own).
   */
  private static final class Written {
    private final ZstdLevelChoice levels;
    private final ZstdLevelChoice.Column column;
    private long bytes;
    private long atLevel3;
    private long atLevel2;
    private long atLevel1;

    Written(ZstdLevelChoice levels) {
      this.levels = levels;
      this.column = levels.newColumn();
    }

    void add(byte[] page) {
      bytes += compress(levels, column, page).length;
      atLevel3 += frameLength(page, 3);
      atLevel2 += frameLength(page, 2);
      atLevel1 += frameLength(page, 1);
    }
  }

  /** Compresses {@code page} through {@code levels} and checks the frame decompresses to it. */
  private static byte[] compress(
      ZstdLevelChoice levels, ZstdLevelChoice.Column column, byte[] page) {
    byte[] target = new byte[(int) Zstd.compressBound(page.length)];
    int length = levels.compress(column, target, page, 0, page.length);
    byte[] frame = Arrays.copyOf(target, length);
    assertThat(Zstd.decompress(frame, page.length)).isEqualTo(page);
    return frame;
  }

  /** The length of {@code page}'s frame from a compression context of its own at {@code level}. */
  private static int frameLength(byte[] page, int level) {
    try (ZstdCompressCtx context = new ZstdCompressCtx()) {
      context.setLevel(level);
      return context.compress(page).length;
    }
  }

  /** {@value #PAGES} pages from {@code pages}, one column's, through {@code levels}. */
  private static Written written(ZstdLevelChoice levels, Supplier<byte[]> pages) {
    Written written = new Written(levels);
    for (int page = 0; page < PAGES; page++) {
      written.add(pages.get());
    }
    return written;
  }

  /** Five hundred words of 3 to 10 letters. */
  private static String[] vocabulary() {
    String[] vocabulary = new String[500];
    Random words = new Random(500);
    for (int index = 0; index < vocabulary.length; index++) {
      StringBuilder word = new StringBuilder();
      for (int letter = 3 + words.nextInt(8); letter > 0; letter--) {
        word.append((char) ('a' + words.nextInt(26)));
      }
      vocabulary[index] = word.toString();
    }
    return vocabulary;
  }

  /** Little-endian doubles of amounts in cents, as a column of prices stores them. */
  private static byte[] amountsPage(Random random) {
    return longsPage(() -> Double.doubleToLongBits(random.nextInt(10_000_000) / 100.0));
  }

  /** Little-endian longs of 40 to 44 million, as a column of ids of a large table stores them. */
  private static byte[] idsPage(Random random) {
    return longsPage(() -> 40_000_000L + random.nextInt(1 << 22));
  }

  /** Words of a small vocabulary, as a column of free text stores them. */
  private static byte[] wordsPage(Random random) {
    return wordsPage(random, PAGE_BYTES);
  }

  private static byte[] wordsPage(Random random, int pageBytes) {
    StringBuilder text = new StringBuilder(pageBytes);
    while (text.length() < pageBytes) {
      text.append(VOCABULARY[random.nextInt(VOCABULARY.length)]).append(' ');
    }
    return text.substring(0, pageBytes).getBytes(StandardCharsets.US_ASCII);
  }

  /** Little-endian longs below 100,000, as a column of ids in a small range stores them. */
  private static byte[] smallLongsPage(Random random) {
    return longsPage(() -> random.nextInt(100_000));
  }

  /** A page of little-endian longs from {@code values}. */
  private static byte[] longsPage(LongSupplier values) {
    return longsPage(PAGE_BYTES, values);
  }

  private static byte[] longsPage(int pageBytes, LongSupplier values) {
    byte[] page = new byte[pageBytes];
    for (int index = 0; index + Long.BYTES <= page.length; index += Long.BYTES) {
      long value = values.getAsLong();
      for (int shift = 0; shift < Long.BYTES; shift++) {
        page[index + shift] = (byte) (value >>> (8 * shift));
      }
    }
    return page;
  }
}
