package dev.lakeops.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lakeops.memory.ArrowByteBufferAllocator.Source;
import java.nio.ByteBuffer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.OutOfMemoryException;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ArrowByteBufferAllocatorTest {
  private RootAllocator root;
  private BufferAllocator allocator;

  @BeforeEach
  void createAllocators() {
    root = new RootAllocator(1L << 20);
    allocator = root.newChildAllocator("parquet", 0, 64 * 1024);
  }

  @AfterEach
  void closeAllocatorsFailingOnLeaks() {
    allocator.close();
    root.close();
  }

  @ParameterizedTest
  @EnumSource(Source.class)
  void buffersCountAgainstTheBudgetUntilFreed(Source source) {
    assumeAvailable(source);
    ArrowByteBufferAllocator buffers = new ArrowByteBufferAllocator(allocator, source);

    ByteBuffer first = buffers.allocate(1000);
    ByteBuffer second = buffers.allocate(4096);
    first.putLong(0, 42L);
    second.put(4095, (byte) 7);

    assertThat(first.isDirect()).isTrue();
    assertThat(first.getLong(0)).isEqualTo(42L);
    assertThat(second.get(4095)).isEqualTo((byte) 7);
    // rounded up to powers of two, as Arrow's own buffers are
    assertThat(allocator.getAllocatedMemory()).isEqualTo(1024 + 4096);
    buffers.release(first);
    buffers.release(first);
    assertThat(allocator.getAllocatedMemory())
        .as("a release only marks the buffer")
        .isEqualTo(1024 + 4096);
    buffers.freeReleased();
    assertThat(allocator.getAllocatedMemory()).isEqualTo(4096);
    buffers.freeAll();
    assertThat(allocator.getAllocatedMemory()).isZero();
  }

  @ParameterizedTest
  @EnumSource(Source.class)
  void aBufferBeyondTheBudgetFailsAndHoldsNothing(Source source) {
    assumeAvailable(source);
    ArrowByteBufferAllocator buffers = new ArrowByteBufferAllocator(allocator, source);
    buffers.allocate(32 * 1024);

    assertThatThrownBy(() -> buffers.allocate(48 * 1024))
        .isInstanceOf(OutOfMemoryException.class)
        .hasMessageContaining("Unable to allocate");

    assertThat(allocator.getAllocatedMemory()).isEqualTo(32 * 1024);
    buffers.freeAll();
  }

  /**
   * Arrow views need java.nio opened to Arrow (the build's test JVMs do); JDK buffers work
   * anywhere.
   */
  private static void assumeAvailable(Source source) {
    assumeTrue(
        source == Source.JDK_DIRECT || Source.available() == Source.ARROW_VIEWS,
        "java.nio is not open to Arrow");
  }
}
