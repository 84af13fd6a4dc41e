package dev.lakeops.rewrite.read;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DictionaryPage;

/**
 * The values of a column chunk's dictionary page, PLAIN-encoded as Parquet stores them: fixed-width
 * values back to back, or, for binary values, each value's start and length within the page.
 */
final class PageDictionary {
  private static final VarHandle INTS =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

  private final byte[] bytes;
  private final int size;
  private final int[] starts;
  private final int[] lengths;

  private PageDictionary(byte[] bytes, int size, int[] starts, int[] lengths) {
    this.bytes = requireNonNull(bytes, "bytes is null");
    this.size = size;
    this.starts = starts;
    this.lengths = lengths;
  }

  static PageDictionary of(DictionaryPage page, PageValueKind kind) throws IOException {
    if (page.getEncoding() != Encoding.PLAIN && page.getEncoding() != Encoding.PLAIN_DICTIONARY) {
      throw new IOException("Unsupported dictionary page encoding " + page.getEncoding());
    }
    byte[] bytes = page.getBytes().toByteArray();
    int size = page.getDictionarySize();
    if (kind != PageValueKind.BINARY) {
      if ((long) size * kind.pageWidth() > bytes.length) {
        throw new IOException(
            "Dictionary page of " + bytes.length + " bytes cannot hold " + size + " values");
      }
      return new PageDictionary(bytes, size, null, null);
    }
    int[] starts = new int[size];
    int[] lengths = new int[size];
    int position = 0;
    for (int index = 0; index < size; index++) {
      if (position + 4 > bytes.length) {
        throw new IOException("Dictionary page ends after " + index + " of " + size + " values");
      }
      int length = (int) INTS.get(bytes, position);
      position += 4;
      if (length < 0 || position + length > bytes.length) {
        throw new IOException(
            "Dictionary value " + index + " of " + length + " bytes runs past its page");
      }
      starts[index] = position;
      lengths[index] = length;
      position += length;
    }
    return new PageDictionary(bytes, size, starts, lengths);
  }

  byte[] bytes() {
    return bytes;
  }

  /** Where fixed-width value {@code id} starts in {@link #bytes()}. */
  int fixedOffset(int id, int width) {
    checkId(id);
    return id * width;
  }

  int start(int id) {
    checkId(id);
    return starts[id];
  }

  int length(int id) {
    return lengths[id];
  }

  private void checkId(int id) {
    if (id < 0 || id >= size) {
      throw new IllegalStateException(
          "Dictionary id " + id + " is outside a dictionary of " + size + " values");
    }
  }
}
