package dev.lakeops.rewrite.sort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Random;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpillBlocksTest {
  @TempDir Path directory;
  private BufferAllocator allocator;

  @BeforeEach
  void createAllocator() {
    allocator = new RootAllocator(8L << 20);
  }

  @AfterEach
  void closeAllocatorFailingOnLeaks() {
    allocator.close();
  }

  @Test
  void bytesComeBackAsWrittenCompressibleOrNot() throws IOException {
    Path file = directory.resolve("run");
    byte[] repetitive = "country=NL,event=click;".repeat(40_000).getBytes();
    byte[] random = new byte[300_000];
    new Random(3).nextBytes(random);
    long stored;
    try (SpillBlockWriter writer = new SpillBlockWriter(create(file));
        ArrowBuf buffer = allocator.buffer(random.length)) {
      writer.write(ByteBuffer.wrap(repetitive));
      buffer.setBytes(0, random);
      writer.write(buffer, 0, random.length);
      writer.close();
      stored = writer.storedBytes();
    }
    assertThat(Files.size(file)).isEqualTo(stored);
    // the repetitive bytes shrink; the random ones are stored as they are, plus block headers
    assertThat(stored).isLessThan(random.length + repetitive.length / 10);
    assertThat(allocator.getAllocatedMemory()).isZero();

    try (SpillBlockReader reader =
            new SpillBlockReader(file, FileChannel.open(file, StandardOpenOption.READ));
        ArrowBuf buffer = allocator.buffer(random.length)) {
      ByteBuffer first = ByteBuffer.allocate(repetitive.length);
      assertThat(reader.read(first)).isEqualTo(repetitive.length);
      assertThat(first.array()).isEqualTo(repetitive);
      assertThat(reader.read(buffer, 0, random.length)).isEqualTo(random.length);
      byte[] back = new byte[random.length];
      buffer.getBytes(0, back);
      assertThat(Arrays.equals(back, random)).isTrue();
      assertThat(reader.read(ByteBuffer.allocate(1))).as("at the end of the file").isZero();
    }
    assertThat(allocator.getAllocatedMemory()).isZero();
  }

  @Test
  void aTruncatedFileIsReportedNotReadAsShort() throws IOException {
    Path file = directory.resolve("run");
    byte[] bytes = new byte[200_000];
    new Random(5).nextBytes(bytes);
    try (SpillBlockWriter writer = new SpillBlockWriter(create(file))) {
      writer.write(ByteBuffer.wrap(bytes));
    }
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      channel.truncate(Files.size(file) - 10);
    }
    try (SpillBlockReader reader =
        new SpillBlockReader(file, FileChannel.open(file, StandardOpenOption.READ))) {
      assertThatThrownBy(() -> reader.read(ByteBuffer.allocate(bytes.length)))
          .isInstanceOf(EOFException.class)
          .hasMessageContaining(file.toString())
          .hasMessageContaining("ends inside a block");
    }
    assertThat(allocator.getAllocatedMemory()).isZero();
  }

  private static FileChannel create(Path file) throws IOException {
    return FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
  }
}
