package dev.lakeops.rewrite.copy;

import static java.util.Objects.requireNonNull;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.PageType;
import org.apache.parquet.format.Util;

/**
 * The pages of one column chunk, parsed from its bytes without decompressing anything.
 *
 * @param dictionaryPage the dictionary page, if the chunk has one
 * @param dataPages data pages (v1 and v2) in file order; index pages are skipped
 */
record ColumnChunkPages(Optional<ParsedPage> dictionaryPage, List<ParsedPage> dataPages) {
  ColumnChunkPages {
    requireNonNull(dictionaryPage, "dictionaryPage is null");
    dataPages = List.copyOf(requireNonNull(dataPages, "dataPages is null"));
  }

  static ColumnChunkPages parse(byte[] bytes, int offset, int length) throws IOException {
    PositionedInputStream stream = new PositionedInputStream(bytes, offset, length);
    Optional<ParsedPage> dictionary = Optional.empty();
    List<ParsedPage> dataPages = new ArrayList<>();
    int end = offset + length;
    while (stream.position() < end) {
      PageHeader header = Util.readPageHeader(stream);
      int dataOffset = stream.position();
      int next = dataOffset + header.getCompressed_page_size();
      if (header.getCompressed_page_size() < 0 || next > end) {
        throw new IOException("Page at " + dataOffset + " runs past the end of its column chunk");
      }
      PageType type = header.getType();
      if (type == PageType.DICTIONARY_PAGE) {
        if (dictionary.isPresent() || !dataPages.isEmpty()) {
          throw new IOException("Column chunk has a dictionary page after its first page");
        }
        dictionary = Optional.of(new ParsedPage(header, bytes, dataOffset));
      } else if (type == PageType.DATA_PAGE || type == PageType.DATA_PAGE_V2) {
        dataPages.add(new ParsedPage(header, bytes, dataOffset));
      } else if (type != PageType.INDEX_PAGE) {
        throw new IOException("Unknown page type " + type);
      }
      stream.skipTo(next);
    }
    return new ColumnChunkPages(dictionary, dataPages);
  }

  private static final class PositionedInputStream extends ByteArrayInputStream {
    PositionedInputStream(byte[] bytes, int offset, int length) {
      super(bytes, offset, length);
    }

    int position() {
      return pos;
    }

    void skipTo(int position) {
      pos = position;
    }
  }
}
