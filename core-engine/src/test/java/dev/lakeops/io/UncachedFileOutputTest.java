package dev.lakeops.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class UncachedFileOutputTest {
  @TempDir Path directory;

  @ParameterizedTest(name = "{0} bytes, past the cache: {1}")
  @CsvSource({
    "0, true",
    "1, true",
    "4095, true",
    "4096, true",
    "1048576, true",
    "1052671, true",
    "3500001, true",
    "3500001, false"
  })
  void everyByteWrittenIsInTheFileInOrder(int size, boolean tryDirect) throws IOException {
    Path file = directory.resolve("out");
    Random random = new Random(size);
    ByteArrayOutputStream expected = new ByteArrayOutputStream();

    try (UncachedFileOutput output = UncachedFileOutput.create(file, false, tryDirect)) {
      if (tryDirect) {
        assertThat(output.bypassesCache()).as("this file system takes O_DIRECT").isTrue();
      }
      int written = 0;
      while (written < size) {
        // single bytes, small writes, and writes longer than the buffer
        int length =
            switch (random.nextInt(3)) {
              case 0 -> 1;
              case 1 -> random.nextInt(9000);
              default -> random.nextInt(3 * UncachedFileOutput.BUFFER_BYTES);
            };
        length = Math.min(length, size - written);
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        if (length == 1) {
          output.write(bytes[0]);
        } else {
          output.write(bytes, 0, length);
        }
        expected.write(bytes, 0, length);
        written += length;
        assertThat(output.position()).isEqualTo(written);
      }
    }

    assertThat(Files.readAllBytes(file)).isEqualTo(expected.toByteArray());
  }

  @Test
  void anExistingFileIsRefusedUnlessOverwritten() throws IOException {
    Path file = directory.resolve("out");
    Files.write(file, new byte[10_000]);

    assertThatThrownBy(() -> UncachedFileOutput.create(file, false))
        .isInstanceOf(FileAlreadyExistsException.class);
    try (UncachedFileOutput output = UncachedFileOutput.create(file, true)) {
      output.write(new byte[] {1, 2, 3}, 0, 3);
    }
    assertThat(Files.readAllBytes(file)).containsExactly(1, 2, 3);
  }

  @Test
  void closingTwiceWritesOnce() throws IOException {
    Path file = directory.resolve("out");
    UncachedFileOutput output = UncachedFileOutput.create(file, false);
    output.write(new byte[5000], 0, 5000);
    output.close();
    output.close();

    assertThat(Files.size(file)).isEqualTo(5000);
  }
}
