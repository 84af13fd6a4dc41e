package dev.lakeops.rewrite.sort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VarCharVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Packed strings: every alphabet of up to 64 bytes comes back byte for byte, with and without a
 * shared prefix, nulls and empty strings among the values; larger alphabets whose extra bytes are
 * rare come back too, those bytes escaped; others are not packed, and packed bytes that do not fit
 * their offsets or escapes are an error.
 */
class PackedStringsTest {
  private BufferAllocator allocator;

  @BeforeEach
  void createAllocator() {
    allocator = new RootAllocator(16L << 20);
  }

  @AfterEach
  void closeAllocatorFailingOnLeaks() {
    allocator.close();
  }

  @Test
  void everyAlphabetSizeComesBackByteForByte() {
    Random random = new Random(3);
    for (int alphabet = 1; alphabet <= PackedStrings.MOST_SYMBOLS; alphabet++) {
      for (String prefix : List.of("", "https://shop.example.com/")) {
        int rows = 1 + random.nextInt(1100);
        try (VarCharVector values = new VarCharVector("values", allocator)) {
          for (int row = 0; row < rows; row++) {
            if (row % 11 == 3) {
              values.setNull(row);
            } else if (row % 13 == 5) {
              values.setSafe(row, new byte[0]);
            } else {
              byte[] tail = new byte[random.nextInt(40)];
              for (int index = 0; index < tail.length; index++) {
                tail[index] = (byte) (33 + random.nextInt(alphabet));
              }
              values.setSafe(row, concat(prefix.getBytes(StandardCharsets.US_ASCII), tail));
            }
          }
          values.setValueCount(rows);
          assertThat(roundTrip(values)).as("alphabet %d, prefix '%s'", alphabet, prefix).isTrue();
        }
      }
    }
  }

  @Test
  void valuesAllEqualToThePrefixTakeNoSymbolBits() {
    try (VarCharVector values = new VarCharVector("values", allocator)) {
      for (int row = 0; row < 500; row++) {
        values.setSafe(row, "same value".getBytes(StandardCharsets.US_ASCII));
      }
      values.setValueCount(500);
      byte[] raw = bytesOf(values);
      byte[] packed = new byte[PackedStrings.maxPackedBytes(raw.length)];

      int bytes =
          new PackedStrings()
              .pack(raw, raw.length, values.getOffsetBuffer().memoryAddress(), 500, packed, 0);

      assertThat(bytes).isLessThan(40);
      assertThat(roundTrip(values)).isTrue();
    }
  }

  @Test
  void base64IdsWithPaddingPackInAboutThreeQuartersOfTheirBytes() {
    Random random = new Random(5);
    try (VarCharVector values = new VarCharVector("values", allocator)) {
      for (int row = 0; row < 1024; row++) {
        // one id in 20 is 23 bytes long: its base64 ends in '=', a 65th byte
        byte[] id = new byte[row % 20 == 7 ? 23 : 24];
        random.nextBytes(id);
        values.setSafe(row, Base64.getEncoder().encode(id));
      }
      values.setValueCount(1024);
      byte[] raw = bytesOf(values);
      byte[] packed = new byte[PackedStrings.maxPackedBytes(raw.length)];

      int bytes =
          new PackedStrings()
              .pack(raw, raw.length, values.getOffsetBuffer().memoryAddress(), 1024, packed, 0);

      assertThat(packed[0] & PackedStrings.ESCAPING).isNotZero();
      // six bits a symbol; '=' and the rarest other byte escaped (the escape takes the 64th code)
      assertThat(bytes).isLessThan(raw.length * 25 / 32 + 128);
      assertThat(roundTrip(values)).isTrue();
    }
  }

  @Test
  void rareBytesBeyondSixtyFourAreEscapedAndComeBackByteForByte() {
    Random random = new Random(6);
    for (int extra = 1; extra <= 60; extra += 7) {
      for (String prefix : List.of("", "id-")) {
        int rows = 200 + random.nextInt(900);
        try (VarCharVector values = new VarCharVector("values", allocator)) {
          for (int row = 0; row < rows; row++) {
            if (row % 11 == 3) {
              values.setNull(row);
              continue;
            }
            byte[] tail = new byte[random.nextInt(40)];
            for (int index = 0; index < tail.length; index++) {
              // 64 common bytes; one in a hundred from the extra ones, byte 0 among them
              tail[index] =
                  random.nextInt(100) == 0
                      ? (byte) (random.nextInt(extra) * 3)
                      : (byte) (64 + random.nextInt(64));
            }
            values.setSafe(row, concat(prefix.getBytes(StandardCharsets.US_ASCII), tail));
          }
          values.setValueCount(rows);
          assertThat(roundTrip(values)).as("%d extra bytes, prefix '%s'", extra, prefix).isTrue();
        }
      }
    }
  }

  @Test
  void packedBytesClaimingOtherEscapesAreAnError() {
    try (VarCharVector values = new VarCharVector("values", allocator)) {
      for (int row = 0; row < 300; row++) {
        byte[] value = new byte[16];
        for (int index = 0; index < value.length; index++) {
          value[index] = (byte) (row % 50 == 0 && index == 0 ? row / 50 : 64 + (row + index) % 64);
        }
        values.setSafe(row, value);
      }
      values.setValueCount(300);
      byte[] raw = bytesOf(values);
      long offsets = values.getOffsetBuffer().memoryAddress();
      byte[] packed = new byte[PackedStrings.maxPackedBytes(raw.length)];
      PackedStrings strings = new PackedStrings();
      int bytes = strings.pack(raw, raw.length, offsets, 300, packed, 0);
      assertThat(packed[0] & PackedStrings.ESCAPING).isNotZero();
      // the escaped symbols' count, after the width, the symbols and an empty prefix
      int escapesAt = 2 + (packed[1] & 0xff) + Integer.BYTES;
      RunFormat.putInt(packed, escapesAt, RunFormat.getInt(packed, escapesAt) + 1);

      assertThatThrownBy(
              () ->
                  strings.unpack(
                      packed, 0, bytes, offsets, 300, raw.length, new byte[raw.length + 8]))
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void moreThanSixtyFourDistinctBytesAreNotPacked() {
    try (VarCharVector values = new VarCharVector("values", allocator)) {
      for (int row = 0; row < 200; row++) {
        values.setSafe(row, new byte[] {(byte) 'x', (byte) row, (byte) (row * 7)});
      }
      values.setValueCount(200);
      byte[] raw = bytesOf(values);
      byte[] packed = new byte[PackedStrings.maxPackedBytes(raw.length)];

      assertThat(
              new PackedStrings()
                  .pack(raw, raw.length, values.getOffsetBuffer().memoryAddress(), 200, packed, 0))
          .isEqualTo(-1);
    }
  }

  @Test
  void packedBytesOfAnotherLengthAreAnError() {
    try (VarCharVector values = new VarCharVector("values", allocator);
        VarCharVector longer = new VarCharVector("longer", allocator)) {
      for (int row = 0; row < 100; row++) {
        values.setSafe(row, ("v-" + Integer.toHexString(row * 977)).getBytes());
        longer.setSafe(row, ("v-" + Integer.toHexString(row * 977) + "0").getBytes());
      }
      values.setValueCount(100);
      longer.setValueCount(100);
      byte[] raw = bytesOf(values);
      byte[] packed = new byte[PackedStrings.maxPackedBytes(raw.length)];
      PackedStrings strings = new PackedStrings();
      int bytes =
          strings.pack(raw, raw.length, values.getOffsetBuffer().memoryAddress(), 100, packed, 0);
      int longerLength = (int) longer.getDataBuffer().readableBytes();

      assertThatThrownBy(
              () ->
                  strings.unpack(
                      packed,
                      0,
                      bytes,
                      longer.getOffsetBuffer().memoryAddress(),
                      100,
                      longerLength,
                      new byte[longerLength + Long.BYTES]))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("symbols claimed");
    }
  }

  /** Whether {@code values}' bytes come back the same through packing, when they pack. */
  private static boolean roundTrip(VarCharVector values) {
    byte[] raw = bytesOf(values);
    long offsets = values.getOffsetBuffer().memoryAddress();
    int rows = values.getValueCount();
    byte[] packed = new byte[PackedStrings.maxPackedBytes(raw.length) + 5];
    int bytes = new PackedStrings().pack(raw, raw.length, offsets, rows, packed, 5);
    assertThat(bytes).isPositive();
    byte[] unpacked = new byte[raw.length + Long.BYTES];
    new PackedStrings().unpack(packed, 5, bytes, offsets, rows, raw.length, unpacked);
    return Arrays.equals(raw, 0, raw.length, unpacked, 0, raw.length);
  }

  private static byte[] bytesOf(VarCharVector values) {
    int length = values.getOffsetBuffer().getInt((long) values.getValueCount() * Integer.BYTES);
    byte[] raw = new byte[length];
    values.getDataBuffer().getBytes(0, raw);
    return raw;
  }

  private static byte[] concat(byte[] first, byte[] second) {
    byte[] joined = Arrays.copyOf(first, first.length + second.length);
    System.arraycopy(second, 0, joined, first.length, second.length);
    return joined;
  }
}
