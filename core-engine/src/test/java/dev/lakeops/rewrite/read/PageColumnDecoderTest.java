package dev.lakeops.rewrite.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type.Repetition;
import org.apache.parquet.schema.Types;
import org.junit.jupiter.api.Test;

/** PLAIN pages are read by index into an array that may be longer than the page: bounds hold. */
class PageColumnDecoderTest {
  private static final PrimitiveType ID =
      Types.primitive(PrimitiveTypeName.INT64, Repetition.REQUIRED).named("id");
  private static final ColumnDescriptor COLUMN =
      new ColumnDescriptor(new String[] {"id"}, ID, 0, 0);

  @Test
  void aPageShorterThanItsArrayReadsItsOwnValues() throws IOException {
    // the array holds four values from an earlier, longer page; this page is the first two
    PageColumnDecoder decoder = decoderOfOnePage(longs(1, 2, 3, 4), 32, 16, 2);
    try (BufferAllocator allocator = new RootAllocator();
        BigIntVector vector = new BigIntVector("id", allocator)) {
      vector.allocateNew(2);

      decoder.read(vector, 2, null);
      vector.setValueCount(2);

      assertThat(List.of(vector.get(0), vector.get(1))).containsExactly(1L, 2L);
    }
  }

  @Test
  void aPageWithFewerValuesThanEntriesFailsNamingTheColumn() throws IOException {
    // three entries, sixteen bytes: two values, though the array goes on
    PageColumnDecoder decoder = decoderOfOnePage(longs(1, 2), 64, 16, 3);
    try (BufferAllocator allocator = new RootAllocator();
        BigIntVector vector = new BigIntVector("id", allocator)) {
      vector.allocateNew(3);

      assertThatThrownBy(() -> decoder.read(vector, 3, null))
          .isInstanceOf(IOException.class)
          .hasMessage("A page of column id holds fewer values than its entries");
    }
  }

  /**
   * A decoder of one PLAIN page of {@code entries} entries and {@code pageBytes} bytes, read from
   * the column's page array of {@code arrayBytes} bytes that starts with {@code arrayStart}.
   */
  private static PageColumnDecoder decoderOfOnePage(
      byte[] arrayStart, int arrayBytes, int pageBytes, int entries) throws IOException {
    PageDecodeBuffers buffers = new PageDecodeBuffers();
    byte[] array = buffers.pageBytes(arrayBytes);
    System.arraycopy(arrayStart, 0, array, 0, arrayStart.length);
    return new PageColumnDecoder(
        pages(page(array, pageBytes, entries)), COLUMN, PageValueKind.INT64, buffers, target -> {});
  }

  /** A PLAIN page of {@code entries} values whose bytes are {@code array}'s first {@code size}. */
  private static DataPage page(byte[] array, int size, int entries) {
    return new DataPageV1(
        BytesInput.from(array, 0, size),
        entries,
        size,
        Statistics.createStats(ID),
        Encoding.BIT_PACKED,
        Encoding.BIT_PACKED,
        Encoding.PLAIN);
  }

  private static byte[] longs(long... values) {
    ByteBuffer buffer =
        ByteBuffer.allocate(values.length * Long.BYTES).order(ByteOrder.LITTLE_ENDIAN);
    for (long value : values) {
      buffer.putLong(value);
    }
    return buffer.array();
  }

  private static PageReader pages(DataPage... pages) {
    Deque<DataPage> queue = new ArrayDeque<>(List.of(pages));
    return new PageReader() {
      @Override
      public DictionaryPage readDictionaryPage() {
        return null;
      }

      @Override
      public long getTotalValueCount() {
        return queue.stream().mapToLong(DataPage::getValueCount).sum();
      }

      @Override
      public DataPage readPage() {
        return queue.poll();
      }
    };
  }
}
