package dev.lakeops.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.iceberg.io.SeekableInputStream;
import org.junit.jupiter.api.Test;

/** Fetched bytes off the heap: read through independent streams, never after they were freed. */
class InMemoryObjectTest {
  @Test
  void streamsReadSeekAndEndAtTheObjectsLength() throws IOException {
    try (BufferAllocator memory = new RootAllocator(1 << 20)) {
      InMemoryObject object = objectOf(memory, "abcdefghij");
      try (SeekableInputStream first = object.newStream();
          SeekableInputStream second = object.newStream()) {
        byte[] bytes = new byte[16];
        assertThat(first.read(bytes, 0, 16)).isEqualTo(10);
        assertThat(new String(bytes, 0, 10, "US-ASCII")).isEqualTo("abcdefghij");
        assertThat(first.read()).isEqualTo(-1);
        second.seek(7);
        assertThat(second.read()).isEqualTo('h');
        assertThat(second.skip(100)).isEqualTo(2);
        assertThat(second.read(bytes, 0, 4)).isEqualTo(-1);
        assertThatThrownBy(() -> second.seek(11)).hasMessageContaining("Cannot seek to 11");
      }
      object.release();
      object.release();
      assertThat(object.isReleased()).isTrue();
      assertThat(memory.getAllocatedMemory()).isZero();
    }
  }

  @Test
  void aStreamOpenWhenTheBytesAreGivenBackFailsItsNextRead() throws IOException {
    try (BufferAllocator memory = new RootAllocator(1 << 20)) {
      InMemoryObject object = objectOf(memory, "abcdefghij");
      try (SeekableInputStream stream = object.newStream()) {
        assertThat(stream.read()).isEqualTo('a');
        object.release();
        assertThatThrownBy(stream::read)
            .isInstanceOf(IOException.class)
            .hasMessage("The fetched bytes were given back before the stream was read");
      }
      assertThat(memory.getAllocatedMemory()).isZero();
    }
  }

  private static InMemoryObject objectOf(BufferAllocator memory, String text) throws IOException {
    byte[] bytes = text.getBytes("US-ASCII");
    ArrowBuf buffer = memory.buffer(bytes.length);
    buffer.setBytes(0, bytes);
    return new InMemoryObject(buffer, bytes.length);
  }
}
