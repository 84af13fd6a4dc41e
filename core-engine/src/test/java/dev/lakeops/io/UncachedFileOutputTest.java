package dev.lakeops.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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
  void aFailingDirectWriteLeavesTheRestToTheCache() throws Exception {
    Path file = directory.resolve("out");
    byte[] bytes = new byte[3 * UncachedFileOutput.BUFFER_BYTES + 12_345];
    new Random(7).nextBytes(bytes);

    try (UncachedFileOutput output = UncachedFileOutput.create(file, false, true)) {
      output.write(bytes, 0, UncachedFileOutput.BUFFER_BYTES + 100);
      // the direct channel stops working mid-file, as on a file system that took O_DIRECT when
      // opening but refuses it when writing
      Field direct = UncachedFileOutput.class.getDeclaredField("direct");
      direct.setAccessible(true);
      ((FileChannel) direct.get(output)).close();
      output.write(
          bytes,
          UncachedFileOutput.BUFFER_BYTES + 100,
          bytes.length - 100 - UncachedFileOutput.BUFFER_BYTES);

      assertThat(output.bypassesCache()).isFalse();
    }

    assertThat(Files.readAllBytes(file)).isEqualTo(bytes);
  }

  @Test
  void filesWrittenAtOnceFromSeveralThreadsHoldTheirOwnBytes() throws Exception {
    int files = 8;
    byte[][] contents = new byte[files][];
    for (int index = 0; index < files; index++) {
      contents[index] = new byte[5 * UncachedFileOutput.BUFFER_BYTES + 777 * index];
      new Random(index).nextBytes(contents[index]);
    }
    ExecutorService writers = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> written = new ArrayList<>();
      for (int index = 0; index < files; index++) {
        Path file = directory.resolve("out-" + index);
        byte[] bytes = contents[index];
        written.add(
            writers.submit(
                () -> {
                  try (UncachedFileOutput output = UncachedFileOutput.create(file, false, true)) {
                    for (int offset = 0; offset < bytes.length; offset += 100_000) {
                      output.write(bytes, offset, Math.min(100_000, bytes.length - offset));
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> file : written) {
        file.get();
      }
    } finally {
      writers.shutdownNow();
    }

    for (int index = 0; index < files; index++) {
      assertThat(Files.readAllBytes(directory.resolve("out-" + index)))
          .as("file %d", index)
          .isEqualTo(contents[index]);
    }
  }

  @Test
  void aWriteThatFailsInTheBackgroundFailsTheStreamNamingTheFile() throws Exception {
    Path file = directory.resolve("out");
    byte[] bytes = new byte[3 * UncachedFileOutput.BUFFER_BYTES];
    UncachedFileOutput output = UncachedFileOutput.create(file, false, true);
    output.write(bytes, 0, 100);
    // neither channel can write any more: the device is gone
    for (String channel : List.of("direct", "cached")) {
      Field field = UncachedFileOutput.class.getDeclaredField(channel);
      field.setAccessible(true);
      ((FileChannel) field.get(output)).close();
    }

    assertThatThrownBy(
            () -> {
              output.write(bytes, 0, bytes.length);
              output.close();
            })
        .isInstanceOf(IOException.class)
        .hasMessageContaining("cannot write " + file);
    // the bytes are lost: closing again says so too
    assertThatThrownBy(output::close)
        .isInstanceOf(IOException.class)
        .hasMessageContaining("cannot write " + file);
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
