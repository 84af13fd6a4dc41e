package dev.lakeops.rewrite.copy;

import static java.util.Objects.requireNonNull;

import org.apache.parquet.format.PageHeader;

/**
 * One page found in a column chunk's bytes.
 *
 * @param header the page header as stored
 * @param bytes the loaded bytes the page's body lies in
 * @param dataOffset where the page's (compressed) body starts in {@code bytes}
 */
record ParsedPage(PageHeader header, byte[] bytes, int dataOffset) {
  ParsedPage {
    requireNonNull(header, "header is null");
    requireNonNull(bytes, "bytes is null");
  }

  int compressedSize() {
    return header.getCompressed_page_size();
  }

  int uncompressedSize() {
    return header.getUncompressed_page_size();
  }
}
