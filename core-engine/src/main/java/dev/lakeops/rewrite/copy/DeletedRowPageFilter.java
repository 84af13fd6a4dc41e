package dev.lakeops.rewrite.copy;

import static java.util.Objects.requireNonNull;

import dev.lakeops.rewrite.codec.HybridRunCodec;
import java.io.IOException;
import org.apache.parquet.bytes.BytesUtils;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.format.DataPageHeader;
import org.apache.parquet.format.DataPageHeaderV2;
import org.apache.parquet.format.PageType;
import org.apache.parquet.schema.PrimitiveType;

/**
 * Passes the data pages of one flat column chunk on without the rows its row group's position
 * deletes remove, and without decoding values: each page is decompressed, its definition levels and
 * dictionary ids are unpacked without the deleted rows' entries, PLAIN values are copied around the
 * deleted ones, and what is left goes to the column's {@link FilteredPageBuffer}, which packs and
 * compresses it into pages of the table's size. Dictionary ids can at the same time be remapped
 * into a merged dictionary or expanded to PLAIN values ({@link DictionaryPageRewriter.Target}). A
 * page whose rows are all deleted adds nothing; one that loses no row and needs no other change is
 * copied as it is. Strings in DELTA_LENGTH_BYTE_ARRAY (as Trino writes them once a dictionary
 * overflows) are written PLAIN, their bytes copied as they are; integers in DELTA_BINARY_PACKED
 * (row lineage as LakeOps derives it) are unpacked and written PLAIN. Pages in other encodings
 * throw {@link UnfilterablePageException}.
 */
final class DeletedRowPageFilter {
  private final ColumnDescriptor descriptor;
  private final PrimitiveType type;
  private final DeletedRows deletedRows;
  private final PageCompression source;
  private final PageCompression target;
  private final FilteredPageBuffer buffer;
  private final boolean addDefinitionLevels;
  private final DataPageWriter pageWriter;
  private final int maxDefinition;
  private final int levelBitWidth;
  private final FilterScratch scratch;
  private int[] levels = new int[0];
  private int[] keptLevels = new int[0];
  private int[] keptValues = new int[0];
  private int nextRow;
  private long nullsRemoved;

  /**
   * @param descriptor the output column (flat)
   * @param source the input chunk's codec
   * @param target the output chunk's codec
   * @param addDefinitionLevels whether the column is required in the input and optional in the
   *     output, so that pages gain definition levels
   * @param buffer gathers the rows left, for the whole output column chunk
   * @param pageWriter writes the pages copied as they are, after the buffer's
   * @param scratch the working arrays, shared with the merge's other filters
   */
  DeletedRowPageFilter(
      ColumnDescriptor descriptor,
      DeletedRows deletedRows,
      PageCompression source,
      PageCompression target,
      boolean addDefinitionLevels,
      FilteredPageBuffer buffer,
      DataPageWriter pageWriter,
      FilterScratch scratch) {
    this.descriptor = requireNonNull(descriptor, "descriptor is null");
    this.type = descriptor.getPrimitiveType();
    this.deletedRows = requireNonNull(deletedRows, "deletedRows is null");
    this.source = requireNonNull(source, "source is null");
    this.target = requireNonNull(target, "target is null");
    this.addDefinitionLevels = addDefinitionLevels;
    this.buffer = requireNonNull(buffer, "buffer is null");
    this.pageWriter = requireNonNull(pageWriter, "pageWriter is null");
    this.scratch = requireNonNull(scratch, "scratch is null");
    if (descriptor.getMaxRepetitionLevel() != 0) {
      throw new IllegalArgumentException(
          "Column "
              + columnName()
              + " is repeated: deleted rows are filtered in flat columns only");
    }
    this.maxDefinition = descriptor.getMaxDefinitionLevel();
    this.levelBitWidth = BytesUtils.getWidthFromMaxInt(maxDefinition);
  }

  /** Null values among the deleted rows passed so far: the chunk's null count drops by these. */
  long nullsRemoved() {
    return nullsRemoved;
  }

  /**
   * Writes {@code page} without its deleted rows; {@code ids} says how to write dictionary ids when
   * the dictionary changed ({@code null}: keep them as they are).
   *
   * @return whether the page was rewritten (false: copied as it is)
   */
  boolean write(ParsedPage page, DictionaryPageRewriter.Target ids) throws IOException {
    if (copiesUnchanged(page, ids)) {
      buffer.flush();
      pageWriter.writeVerbatim(page);
      return false;
    }
    PageParts parts =
        page.header().getType() == PageType.DATA_PAGE_V2 ? partsOfV2(page) : partsOfV1(page);
    int firstRow = nextRow;
    nextRow += parts.entries();
    Selection kept = selectEntries(parts, firstRow);
    if (kept.rows() == 0) {
      return true;
    }
    int[] rowLevels = readsLevels() && !kept.allDefined() ? keptLevels : null;
    Encoding encoding = parts.encoding();
    if (encoding.usesDictionary()) {
      addKeptIds(parts, kept, ids, rowLevels);
    } else if (encoding == Encoding.PLAIN
        && type.getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.BOOLEAN) {
      buffer.addBooleans(
          rowLevels, kept.rows(), keptPlainValues(parts, kept).booleans(), kept.values());
    } else {
      KeptPlainValues values = keptPlainValues(parts, kept);
      buffer.addPlain(rowLevels, kept.rows(), sink -> writePlain(values, encoding, sink));
    }
    return true;
  }

  /**
   * Whether {@code page} loses no row and needs no other change (codec, levels, dictionary ids), so
   * that it is copied as it is; the rows are then passed.
   */
  private boolean copiesUnchanged(ParsedPage page, DictionaryPageRewriter.Target ids) {
    if (addDefinitionLevels || source.codec() != target.codec()) {
      return false;
    }
    boolean v2 = page.header().getType() == PageType.DATA_PAGE_V2;
    if (ids != null
        && DataPageWriter.encoding(
                v2
                    ? page.header().getData_page_header_v2().getEncoding()
                    : page.header().getData_page_header().getEncoding())
            .usesDictionary()) {
      return false;
    }
    int entries =
        v2
            ? page.header().getData_page_header_v2().getNum_values()
            : page.header().getData_page_header().getNum_values();
    if (deletedRows.anyDeletedIn(nextRow, nextRow + entries)) {
      return false;
    }
    nextRow += entries;
    return true;
  }

  /**
   * What a page keeps: {@code rows} entries (their levels in {@link #keptLevels} unless {@code
   * allDefined}: then every kept entry has a value) and {@code values} defined values (their
   * indices in {@link #keptValues}).
   */
  private record Selection(int rows, int values, boolean allDefined) {}

  /**
   * The entries of a page, its definition levels unpacked (unless every entry is defined), its
   * values section uncompressed in {@code values[valuesStart, valuesEnd)}.
   */
  private record PageParts(
      int entries,
      int definedValues,
      Encoding encoding,
      byte[] values,
      int valuesStart,
      int valuesEnd) {}

  private PageParts partsOfV1(ParsedPage page) throws IOException {
    DataPageHeader header = page.header().getData_page_header();
    int entries = header.getNum_values();
    PageBytes decompressed = scratch.page();
    source.decompressInto(
        page.bytes(),
        page.dataOffset(),
        page.compressedSize(),
        page.uncompressedSize(),
        decompressed);
    byte[] body = decompressed.array();
    int bodyEnd = page.uncompressedSize();
    int position = 0;
    int defined = entries;
    if (readsLevels()) {
      if (header.getDefinition_level_encoding() != org.apache.parquet.format.Encoding.RLE) {
        throw new UnfilterablePageException(
            "Column "
                + columnName()
                + " has definition levels encoded as "
                + header.getDefinition_level_encoding());
      }
      if (bodyEnd < 4) {
        throw new IOException("Column " + columnName() + " has a page without its levels");
      }
      int length = BytesUtils.readIntLittleEndian(body, 0);
      if (length < 0 || 4 + length > bodyEnd) {
        throw new IOException("Column " + columnName() + " has levels running past their page");
      }
      defined = unpackLevels(body, 4, 4 + length, entries);
      position = 4 + length;
    }
    return new PageParts(
        entries, defined, DataPageWriter.encoding(header.getEncoding()), body, position, bodyEnd);
  }

  private PageParts partsOfV2(ParsedPage page) throws IOException {
    DataPageHeaderV2 header = page.header().getData_page_header_v2();
    int entries = header.getNum_values();
    int repetitionLength = header.getRepetition_levels_byte_length();
    int definitionLength = header.getDefinition_levels_byte_length();
    int levelsLength = repetitionLength + definitionLength;
    int defined = entries;
    if (readsLevels()) {
      int start = page.dataOffset() + repetitionLength;
      defined = unpackLevels(page.bytes(), start, start + definitionLength, entries);
    }
    int dataOffset = page.dataOffset() + levelsLength;
    int dataLength = page.compressedSize() - levelsLength;
    Encoding encoding = DataPageWriter.encoding(header.getEncoding());
    if (!header.isIs_compressed()) {
      return new PageParts(
          entries, defined, encoding, page.bytes(), dataOffset, dataOffset + dataLength);
    }
    int uncompressedLength = page.uncompressedSize() - levelsLength;
    source.decompressInto(page.bytes(), dataOffset, dataLength, uncompressedLength, scratch.page());
    return new PageParts(entries, defined, encoding, scratch.page().array(), 0, uncompressedLength);
  }

  /** Whether input pages carry definition levels. */
  private boolean readsLevels() {
    return maxDefinition > 0 && !addDefinitionLevels;
  }

  /**
   * Unpacks {@code entries} definition levels into {@link #levels}; returns the defined ones.
   * Levels that are one run of the maximum (no nulls) are not unpacked: every entry is defined.
   */
  private int unpackLevels(byte[] bytes, int start, int end, int entries) throws IOException {
    if (isOneDefinedRun(bytes, start, end, entries)) {
      return entries;
    }
    levels = scratch.levels(entries);
    HybridRunCodec.decodeInto(bytes, start, end, levelBitWidth, entries, levels);
    int defined = 0;
    for (int entry = 0; entry < entries; entry++) {
      defined += levels[entry] == maxDefinition ? 1 : 0;
    }
    return defined;
  }

  /**
   * Whether levels {@code bytes[start, end)} open with an RLE run of the maximum over all entries.
   */
  private boolean isOneDefinedRun(byte[] bytes, int start, int end, int entries) {
    int position = start;
    int header = 0;
    int shift = 0;
    int next;
    do {
      if (position >= end || shift > 28) {
        return false;
      }
      next = bytes[position++] & 0xFF;
      header |= (next & 0x7F) << shift;
      shift += 7;
    } while ((next & 0x80) != 0);
    int valueBytes = (levelBitWidth + 7) / 8;
    if ((header & 1) != 0 || (header >>> 1) < entries || position + valueBytes > end) {
      return false;
    }
    int value = 0;
    for (int index = 0; index < valueBytes; index++) {
      value |= (bytes[position++] & 0xFF) << (8 * index);
    }
    return value == maxDefinition;
  }

  /**
   * Fills {@link #keptLevels} (when pages have levels) and {@link #keptValues} (indices of the
   * defined values kept) for the page's entries, counting the deleted nulls.
   */
  private Selection selectEntries(PageParts parts, int firstRow) {
    int entries = parts.entries();
    keptValues = scratch.keptValues(parts.definedValues());
    if (!readsLevels() || parts.definedValues() == entries) {
      return selectDefinedEntries(entries, firstRow);
    }
    keptLevels = scratch.keptLevels(entries);
    boolean withLevels = true;
    int kept = 0;
    int value = 0;
    int keptValueCount = 0;
    for (int entry = 0; entry < entries; entry++) {
      boolean defined = !withLevels || levels[entry] == maxDefinition;
      if (deletedRows.isDeleted(firstRow + entry)) {
        nullsRemoved += defined ? 0 : 1;
      } else {
        if (withLevels) {
          keptLevels[kept] = levels[entry];
        }
        kept++;
        if (defined) {
          keptValues[keptValueCount++] = value;
        }
      }
      value += defined ? 1 : 0;
    }
    return new Selection(kept, keptValueCount, false);
  }

  /**
   * {@link #selectEntries} for a page whose entries all have a value: the kept ones are the runs
   * between deleted rows.
   */
  private Selection selectDefinedEntries(int entries, int firstRow) {
    int kept = 0;
    int entry = 0;
    int end = firstRow + entries;
    while (entry < entries) {
      int deleted = deletedRows.nextDeleted(firstRow + entry, end) - firstRow;
      for (int index = entry; index < deleted; index++) {
        keptValues[kept++] = index;
      }
      entry = deleted + 1;
    }
    return new Selection(kept, kept, true);
  }

  private KeptPlainValues keptPlainValues(PageParts parts, Selection selection) {
    return new KeptPlainValues(
        parts.values(),
        parts.valuesStart(),
        parts.valuesEnd(),
        parts.definedValues(),
        keptValues,
        selection.values(),
        columnName());
  }

  /** Writes the kept values of a page that is not dictionary-encoded, PLAIN, to {@code sink}. */
  private void writePlain(KeptPlainValues kept, Encoding encoding, PageBytes sink)
      throws IOException {
    if (encoding == Encoding.DELTA_LENGTH_BYTE_ARRAY
        && type.getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.BINARY) {
      kept.writeDeltaLengthStringsAsPlain(sink);
      return;
    }
    if (encoding == Encoding.DELTA_BINARY_PACKED) {
      switch (type.getPrimitiveTypeName()) {
        case INT32 -> kept.writeDeltaIntegersAsPlain(false, sink);
        case INT64 -> kept.writeDeltaIntegersAsPlain(true, sink);
        default ->
            throw new UnfilterablePageException(
                "Column " + columnName() + " of type " + type + " has a DELTA_BINARY_PACKED page");
      }
      return;
    }
    if (encoding != Encoding.PLAIN) {
      throw new UnfilterablePageException(
          "Column " + columnName() + " has a page encoded as " + encoding);
    }
    switch (type.getPrimitiveTypeName()) {
      case INT32, FLOAT -> kept.writeFixedWidth(4, sink);
      case INT64, DOUBLE -> kept.writeFixedWidth(8, sink);
      case INT96 -> kept.writeFixedWidth(12, sink);
      case FIXED_LEN_BYTE_ARRAY -> kept.writeFixedWidth(type.getTypeLength(), sink);
      case BINARY -> kept.writeLengthPrefixed(sink);
      case BOOLEAN -> throw new IllegalStateException("Booleans are gathered unpacked");
    }
  }

  /**
   * Hands the kept dictionary ids of a page to the buffer: as they are ({@code target} null),
   * remapped into a merged dictionary, or expanded to PLAIN values.
   */
  private void addKeptIds(
      PageParts parts, Selection selection, DictionaryPageRewriter.Target target, int[] rowLevels)
      throws IOException {
    byte[] section = parts.values();
    int start = parts.valuesStart();
    int sectionEnd = parts.valuesEnd();
    int count = parts.definedValues();
    int rows = selection.rows();
    int kept = selection.values();
    if (count > 0 && start >= sectionEnd) {
      throw new IOException(
          "Column " + columnName() + " has a dictionary-encoded page without ids");
    }
    int bitWidth = count == 0 ? 0 : section[start] & 0xFF;
    if (bitWidth > 32) {
      throw new IOException("Invalid dictionary id bit width " + bitWidth);
    }
    int[] ids = scratch.ids(count);
    if (count > 0) {
      HybridRunCodec.decodeInto(section, start + 1, sectionEnd, bitWidth, count, ids);
    }
    // kept indices ascend and are never below their position: compact in place
    for (int index = 0; index < kept; index++) {
      ids[index] = ids[keptValues[index]];
    }
    if (target == null) {
      buffer.addIds(rowLevels, rows, ids, kept, bitWidth, parts.encoding());
    } else if (target.encoding(parts.encoding()) == Encoding.PLAIN) {
      buffer.addPlain(rowLevels, rows, target.plainValues(ids, kept));
    } else {
      int outputBitWidth = target.remapInPlace(ids, kept);
      buffer.addIds(rowLevels, rows, ids, kept, outputBitWidth, parts.encoding());
    }
  }

  private String columnName() {
    return String.join(".", descriptor.getPath());
  }
}
