package dev.lakeops.rewrite.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridDecoder;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridEncoder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The hybrid codec agrees with parquet-java's own encoder and decoder, both ways. */
class TestHybridRunCodec {
  @ParameterizedTest(name = "bit width {0}")
  @ValueSource(ints = {0, 1, 2, 3, 5, 7, 8, 9, 12, 16, 17, 20, 24, 31})
  void decodesWhatParquetEncodes(int bitWidth) throws IOException {
    for (int[] values : samples(bitWidth)) {
      byte[] encoded = parquetEncode(values, bitWidth);
      assertThat(HybridRunCodec.decode(encoded, 0, encoded.length, bitWidth, values.length))
          .containsExactly(values);
    }
  }

  @ParameterizedTest(name = "bit width {0}")
  @ValueSource(ints = {0, 1, 2, 3, 5, 7, 8, 9, 12, 16, 17, 20, 24, 31})
  void parquetDecodesWhatItEncodes(int bitWidth) throws IOException {
    for (int[] values : samples(bitWidth)) {
      // ids into a dictionary of the distinct values, remapped back to the values themselves
      int[] distinct = IntStream.of(values).distinct().toArray();
      Map<Integer, Integer> position = new HashMap<>();
      for (int index = 0; index < distinct.length; index++) {
        position.put(distinct[index], index);
      }
      int[] ids = IntStream.of(values).map(position::get).toArray();
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      HybridRunCodec.encodeRemapped(ids, distinct, bitWidth, out);
      byte[] encoded = out.toByteArray();
      RunLengthBitPackingHybridDecoder decoder =
          new RunLengthBitPackingHybridDecoder(bitWidth, new ByteArrayInputStream(encoded));
      for (int index = 0; index < values.length; index++) {
        assertThat(decoder.readInt())
            .as("value %d of %d", index, values.length)
            .isEqualTo(values[index]);
      }
      assertThat(HybridRunCodec.decode(encoded, 0, encoded.length, bitWidth, values.length))
          .containsExactly(values);
    }
  }

  @Test
  void remapsWhileEncodingAndKeepsRunsShort() throws IOException {
    int[] values = new int[1000];
    for (int index = 0; index < values.length; index++) {
      values[index] = index < 600 ? 1 : 0;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    HybridRunCodec.encodeRemapped(values, new int[] {5, 2}, 3, out);
    byte[] encoded = out.toByteArray();
    assertThat(encoded.length).as("two RLE runs").isLessThanOrEqualTo(8);
    int[] decoded = HybridRunCodec.decode(encoded, 0, encoded.length, 3, values.length);
    for (int index = 0; index < values.length; index++) {
      assertThat(decoded[index]).isEqualTo(index < 600 ? 2 : 5);
    }
  }

  @Test
  void indexOutsideTheDictionaryIsAnError() {
    assertThatThrownBy(
            () ->
                HybridRunCodec.encodeRemapped(
                    new int[] {0, 3}, new int[] {0, 1}, 1, new ByteArrayOutputStream()))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("Dictionary index 3");
  }

  @Test
  void truncatedInputIsAnError() throws IOException {
    int[] values = IntStream.range(0, 100).map(index -> index % 7).toArray();
    byte[] encoded = parquetEncode(values, 3);
    assertThatThrownBy(() -> HybridRunCodec.decode(encoded, 0, 3, 3, values.length))
        .isInstanceOf(IOException.class);
  }

  /** Random ids, long runs, short runs, runs across group boundaries, odd lengths. */
  private static int[][] samples(int bitWidth) {
    Random random = new Random(bitWidth);
    int bound = bitWidth == 0 ? 1 : (int) Math.min(1L << bitWidth, Integer.MAX_VALUE);
    int[] lengths = {1, 7, 8, 9, 63, 64, 65, 500, 1023, 5000};
    int[][] samples = new int[lengths.length * 3][];
    int sample = 0;
    for (int length : lengths) {
      int[] uniform = new int[length];
      int[] runs = new int[length];
      int[] mixed = new int[length];
      int runValue = random.nextInt(bound);
      for (int index = 0; index < length; index++) {
        uniform[index] = random.nextInt(bound);
        if (random.nextInt(13) == 0) {
          runValue = random.nextInt(bound);
        }
        runs[index] = runValue;
        mixed[index] = (index / 37) % 2 == 0 ? runValue : random.nextInt(bound);
      }
      samples[sample++] = uniform;
      samples[sample++] = runs;
      samples[sample++] = mixed;
    }
    return samples;
  }

  private static byte[] parquetEncode(int[] values, int bitWidth) throws IOException {
    try (RunLengthBitPackingHybridEncoder encoder =
        new RunLengthBitPackingHybridEncoder(
            bitWidth, 1024, 1 << 20, HeapByteBufferAllocator.getInstance())) {
      for (int value : values) {
        encoder.writeInt(value);
      }
      return encoder.toBytes().toByteArray();
    }
  }
}
