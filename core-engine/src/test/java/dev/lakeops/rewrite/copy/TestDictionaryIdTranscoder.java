package dev.lakeops.rewrite.copy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Random;
import org.apache.parquet.bytes.BytesUtils;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridDecoder;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridEncoder;
import org.junit.jupiter.api.Test;

/**
 * Dictionary ids written by parquet-java's encoder, transcoded run by run into a merged
 * dictionary's ids, read back by parquet-java's decoder; definition levels counted run by run.
 */
class TestDictionaryIdTranscoder {
  @Test
  void remapsRunsAndBitPackedGroupsAsParquetJavaReadsThem() throws IOException {
    Random random = new Random(7);
    for (int round = 0; round < 200; round++) {
      int dictionarySize = 1 + random.nextInt(round % 3 == 0 ? 3 : 5_000);
      int count = random.nextInt(3_000);
      int[] ids = new int[count];
      for (int index = 0; index < count; ) {
        int run = random.nextBoolean() ? 1 : 1 + random.nextInt(40);
        int id = random.nextInt(dictionarySize);
        for (int repeat = 0; repeat < run && index < count; repeat++) {
          ids[index++] = id;
        }
      }
      int mergedSize = dictionarySize + random.nextInt(100_000);
      int[] remap = new int[dictionarySize];
      for (int id = 0; id < dictionarySize; id++) {
        remap[id] = random.nextInt(mergedSize);
      }
      int outputBitWidth = BytesUtils.getWidthFromMaxInt(mergedSize - 1);

      byte[] page = idsSection(ids, BytesUtils.getWidthFromMaxInt(dictionarySize - 1));
      byte[] transcoded =
          new DictionaryIdTranscoder(remap, outputBitWidth).transcode(page, 0, page.length, count);

      assertThat(transcoded[0] & 0xFF).isEqualTo(outputBitWidth);
      int[] read = read(transcoded, count);
      for (int index = 0; index < count; index++) {
        assertThat(read[index])
            .as("value %d of round %d", index, round)
            .isEqualTo(remap[ids[index]]);
      }
    }
  }

  @Test
  void rejectsAnIdOutsideTheDictionary() throws IOException {
    byte[] page = idsSection(new int[] {0, 1, 5}, 3);

    assertThatThrownBy(
            () ->
                new DictionaryIdTranscoder(new int[] {3, 4}, 3).transcode(page, 0, page.length, 3))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("Dictionary index 5 is outside a dictionary of 2 entries");
  }

  @Test
  void countsDefinedValuesOfRunsAndBitPackedGroups() throws IOException {
    Random random = new Random(11);
    for (int round = 0; round < 100; round++) {
      int maxLevel = 1 + random.nextInt(3);
      int count = random.nextInt(5_000);
      int bitWidth = BytesUtils.getWidthFromMaxInt(maxLevel);
      RunLengthBitPackingHybridEncoder encoder =
          new RunLengthBitPackingHybridEncoder(
              bitWidth, 64, 1 << 20, HeapByteBufferAllocator.getInstance());
      int expected = 0;
      for (int index = 0; index < count; ) {
        int run = random.nextBoolean() ? 1 : 1 + random.nextInt(30);
        int level = random.nextInt(maxLevel + 1);
        for (int repeat = 0; repeat < run && index < count; repeat++, index++) {
          encoder.writeInt(level);
          expected += level == maxLevel ? 1 : 0;
        }
      }
      byte[] levels = encoder.toBytes().toByteArray();

      assertThat(DefinedValueCount.of(levels, 0, levels.length, bitWidth, count, maxLevel))
          .isEqualTo(expected);
    }
  }

  private static byte[] idsSection(int[] ids, int bitWidth) throws IOException {
    RunLengthBitPackingHybridEncoder encoder =
        new RunLengthBitPackingHybridEncoder(
            bitWidth, 64, 1 << 20, HeapByteBufferAllocator.getInstance());
    for (int id : ids) {
      encoder.writeInt(id);
    }
    byte[] runs = encoder.toBytes().toByteArray();
    byte[] section = new byte[runs.length + 1];
    section[0] = (byte) bitWidth;
    System.arraycopy(runs, 0, section, 1, runs.length);
    return section;
  }

  private static int[] read(byte[] section, int count) throws IOException {
    RunLengthBitPackingHybridDecoder decoder =
        new RunLengthBitPackingHybridDecoder(
            section[0] & 0xFF, new ByteArrayInputStream(section, 1, section.length - 1));
    int[] values = new int[count];
    for (int index = 0; index < count; index++) {
      values[index] = decoder.readInt();
    }
    return values;
  }
}
