package dev.lakeops.rewrite.copy;

import static java.util.Objects.requireNonNull;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.parquet.bytes.BytesUtils;
import org.apache.parquet.format.DataPageHeader;
import org.apache.parquet.format.DataPageHeaderV2;
import org.apache.parquet.format.Encoding;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.PageType;

/**
 * Brings the pages of one input column chunk into the output column chunk's form without decoding
 * values: pages compressed with another codec are decompressed and recompressed, and pages of a
 * column that is required in the input but optional in the output gain definition levels saying
 * every value is defined (one RLE run; in a v1 page it goes before the values, in a v2 page it is
 * the uncompressed level section, so the compressed data section is kept as is). Dictionary pages
 * only change codec.
 */
final class PageAdapter {
  private final PageCompression source;
  private final PageCompression target;
  private final boolean addDefinitionLevels;

  PageAdapter(PageCompression source, PageCompression target, boolean addDefinitionLevels) {
    this.source = requireNonNull(source, "source is null");
    this.target = requireNonNull(target, "target is null");
    this.addDefinitionLevels = addDefinitionLevels;
  }

  /** Whether pages need changing at all. */
  boolean changesPages() {
    return addDefinitionLevels || source.codec() != target.codec();
  }

  ColumnChunkPages adapt(ColumnChunkPages pages) throws IOException {
    if (!changesPages()) {
      return pages;
    }
    Optional<ParsedPage> dictionary =
        pages.dictionaryPage().isPresent()
            ? Optional.of(recompress(pages.dictionaryPage().get()))
            : Optional.empty();
    List<ParsedPage> dataPages = new ArrayList<>(pages.dataPages().size());
    for (ParsedPage page : pages.dataPages()) {
      dataPages.add(
          page.header().getType() == PageType.DATA_PAGE_V2 ? adaptV2(page) : adaptV1(page));
    }
    return new ColumnChunkPages(dictionary, dataPages);
  }

  /** The chunk's dictionary page in the output's codec, if it has one; data pages left alone. */
  Optional<ParsedPage> adaptDictionary(ColumnChunkPages pages) throws IOException {
    return pages.dictionaryPage().isPresent()
        ? Optional.of(recompress(pages.dictionaryPage().get()))
        : Optional.empty();
  }

  private ParsedPage recompress(ParsedPage page) throws IOException {
    if (source.codec() == target.codec()) {
      return page;
    }
    byte[] plain =
        source.decompress(
            page.bytes(), page.dataOffset(), page.compressedSize(), page.uncompressedSize());
    return withBody(page.header().deepCopy(), target.compress(plain), plain.length);
  }

  private ParsedPage adaptV1(ParsedPage page) throws IOException {
    byte[] body =
        source.decompress(
            page.bytes(), page.dataOffset(), page.compressedSize(), page.uncompressedSize());
    PageHeader header = page.header().deepCopy();
    if (addDefinitionLevels) {
      DataPageHeader dataHeader = header.getData_page_header();
      byte[] run = allDefinedRun(dataHeader.getNum_values());
      byte[] withLevels = new byte[4 + run.length + body.length];
      withLevels[0] = (byte) run.length;
      withLevels[1] = (byte) (run.length >>> 8);
      withLevels[2] = (byte) (run.length >>> 16);
      withLevels[3] = (byte) (run.length >>> 24);
      System.arraycopy(run, 0, withLevels, 4, run.length);
      System.arraycopy(body, 0, withLevels, 4 + run.length, body.length);
      dataHeader.setDefinition_level_encoding(Encoding.RLE);
      body = withLevels;
    }
    return withBody(header, target.compress(body), body.length);
  }

  private ParsedPage adaptV2(ParsedPage page) throws IOException {
    PageHeader header = page.header().deepCopy();
    DataPageHeaderV2 dataHeader = header.getData_page_header_v2();
    int repetitionLength = dataHeader.getRepetition_levels_byte_length();
    int definitionLength = dataHeader.getDefinition_levels_byte_length();
    int levelsLength = repetitionLength + definitionLength;
    int dataOffset = page.dataOffset() + levelsLength;
    int dataLength = page.compressedSize() - levelsLength;
    int uncompressedDataLength = page.uncompressedSize() - levelsLength;
    byte[] data;
    if (dataHeader.isIs_compressed() && source.codec() != target.codec()) {
      data =
          target.compress(
              source.decompress(page.bytes(), dataOffset, dataLength, uncompressedDataLength));
    } else {
      data = Arrays.copyOfRange(page.bytes(), dataOffset, dataOffset + dataLength);
    }
    byte[] definitionLevels =
        addDefinitionLevels
            ? allDefinedRun(dataHeader.getNum_values())
            : Arrays.copyOfRange(
                page.bytes(),
                page.dataOffset() + repetitionLength,
                page.dataOffset() + levelsLength);
    dataHeader.setDefinition_levels_byte_length(definitionLevels.length);
    byte[] body = new byte[repetitionLength + definitionLevels.length + data.length];
    System.arraycopy(page.bytes(), page.dataOffset(), body, 0, repetitionLength);
    System.arraycopy(definitionLevels, 0, body, repetitionLength, definitionLevels.length);
    System.arraycopy(data, 0, body, repetitionLength + definitionLevels.length, data.length);
    return withBody(
        header, body, repetitionLength + definitionLevels.length + uncompressedDataLength);
  }

  private static ParsedPage withBody(PageHeader header, byte[] body, int uncompressedSize) {
    header.setCompressed_page_size(body.length);
    header.setUncompressed_page_size(uncompressedSize);
    header.unsetCrc();
    return new ParsedPage(header, body, 0);
  }

  /** Definition levels of bit width 1 saying all {@code count} values are defined: one RLE run. */
  static byte[] allDefinedRun(int count) throws IOException {
    ByteArrayOutputStream run = new ByteArrayOutputStream(8);
    BytesUtils.writeUnsignedVarInt(count << 1, run);
    run.write(1);
    return run.toByteArray();
  }
}
