package dev.lakeops.rewrite.sort;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LoserTreeTest {
  @Test
  void mergesSortedSourcesStablyWhateverTheirKeys() {
    Random random = new Random(5);
    for (int round = 0; round < 200; round++) {
      int sources = 1 + random.nextInt(12);
      List<List<byte[]>> keys = new ArrayList<>();
      List<Entry> expected = new ArrayList<>();
      for (int source = 0; source < sources; source++) {
        int count = random.nextInt(4) == 0 ? 0 : random.nextInt(40);
        List<byte[]> sourceKeys = new ArrayList<>();
        for (int index = 0; index < count; index++) {
          sourceKeys.add(randomKey(random));
        }
        sourceKeys.sort(Arrays::compareUnsigned);
        keys.add(sourceKeys);
        for (int index = 0; index < count; index++) {
          expected.add(new Entry(source, index, sourceKeys.get(index)));
        }
      }
      // stable: equal keys in source order, then in their order within the source
      expected.sort(
          Comparator.<Entry, byte[]>comparing(Entry::key, Arrays::compareUnsigned)
              .thenComparingInt(Entry::source)
              .thenComparingInt(Entry::index));

      assertThat(merge(keys))
          .as("round %d", round)
          .isEqualTo(expected.stream().map(Entry::label).toList());
    }
  }

  private static List<String> merge(List<List<byte[]>> keys) {
    int sources = keys.size();
    long[] heads = new long[sources * SortKeys.PREFIX_SLOTS];
    int[] positions = new int[sources];
    boolean[] empty = new boolean[sources];
    for (int source = 0; source < sources; source++) {
      empty[source] = keys.get(source).isEmpty();
      if (!empty[source]) {
        putHead(keys.get(source).get(0), heads, source);
      }
    }
    LoserTree tree =
        new LoserTree(
            empty,
            heads,
            (left, right) ->
                Arrays.compareUnsigned(
                    keys.get(left).get(positions[left]), keys.get(right).get(positions[right])));
    List<String> merged = new ArrayList<>();
    int winner;
    while ((winner = tree.winner()) >= 0) {
      merged.add(new Entry(winner, positions[winner], null).label());
      positions[winner]++;
      boolean exhausted = positions[winner] == keys.get(winner).size();
      if (!exhausted) {
        putHead(keys.get(winner).get(positions[winner]), heads, winner);
      }
      tree.advanceWinner(exhausted);
    }
    return merged;
  }

  private static void putHead(byte[] key, long[] heads, int source) {
    KeyBytes bytes = new KeyBytes();
    bytes.put(key, 0, key.length);
    SortKeys.prefix(bytes, heads, source * SortKeys.PREFIX_SLOTS);
  }

  /**
   * Short and long keys over few byte values, many starting with 0xFF bytes: ties and undecided
   * prefixes.
   */
  private static byte[] randomKey(Random random) {
    byte[] key = new byte[random.nextInt(4) == 0 ? 16 + random.nextInt(10) : random.nextInt(17)];
    boolean ones = random.nextInt(3) == 0;
    for (int index = 0; index < key.length; index++) {
      key[index] = ones && index < 16 ? (byte) 0xFF : (byte) (random.nextInt(3) * 0x7F);
    }
    return key;
  }

  private record Entry(int source, int index, byte[] key) {
    String label() {
      return source + ":" + index;
    }
  }
}
