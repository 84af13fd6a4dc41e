package dev.lakeops.rewrite.copy;

import static java.util.Objects.requireNonNull;

import org.apache.parquet.format.PageHeader;

/**
 * One page found in a column chunk's bytes.
 *
 * @param header the page header as stored
 * @param dataOffset where the page's (compressed) body starts in the loaded bytes
 */
record ParsedPage(PageHeader header, int dataOffset) {
  ParsedPage {
    requireNonNull(header, "header is null");
  }

  int compressedSize() {
    return header.getCompressed_page_size();
  }

  int uncompressedSize() {
    return header.getUncompressed_page_size();
  }
}
