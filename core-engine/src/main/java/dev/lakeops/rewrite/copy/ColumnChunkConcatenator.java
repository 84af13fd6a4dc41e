package dev.lakeops.rewrite.copy;

import static java.util.Objects.requireNonNull;

import dev.lakeops.rewrite.copy.LoadedRowGroup.LoadedChunk;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.bytes.BytesUtils;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.format.DictionaryPageHeader;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * Writes one output column chunk from the column chunks of several input row groups by
 * concatenating their pages. Pages of inputs in another codec, or of inputs where the column is
 * required while the output has it optional, are first brought into the output's form by a {@link
 * PageAdapter}. With at most one input dictionary every page is then copied unchanged; otherwise
 * dictionaries are merged and indices remapped, and chunks whose dictionary no longer fits the
 * limit have their dictionary-encoded pages expanded to PLAIN. Pages of chunks with deleted rows
 * are rewritten without them by a {@link DeletedRowPageFilter}, which also remaps or expands their
 * dictionary ids.
 */
final class ColumnChunkConcatenator {
  private final ParquetFileWriter writer;
  private final PageCompressions compressions;
  private final CompressionCodecName tableCodec;
  private final boolean rewriteCodec;
  private final long maxDictionaryBytes;
  private final int pageValueBytes;
  private final int pageRowLimit;
  private final MergeCounters counters;
  private final FilterScratch scratch = new FilterScratch();
  private final PageBytes plainValues = new PageBytes(1 << 16);
  private final PageBytes pageBody = new PageBytes(1 << 16);

  /**
   * @param tableCodec the codec an output chunk takes when its inputs use several, or always with
   *     {@code rewriteCodec}
   * @param rewriteCodec whether every page must end up in {@code tableCodec}; otherwise chunks
   *     whose inputs share one codec keep it
   * @param pageValueBytes the size of the pages written anew (rows left by deletes)
   * @param pageRowLimit their largest row count
   */
  ColumnChunkConcatenator(
      ParquetFileWriter writer,
      PageCompressions compressions,
      CompressionCodecName tableCodec,
      boolean rewriteCodec,
      long maxDictionaryBytes,
      int pageValueBytes,
      int pageRowLimit,
      MergeCounters counters) {
    this.writer = requireNonNull(writer, "writer is null");
    this.compressions = requireNonNull(compressions, "compressions is null");
    this.tableCodec = requireNonNull(tableCodec, "tableCodec is null");
    this.rewriteCodec = rewriteCodec;
    this.maxDictionaryBytes = maxDictionaryBytes;
    this.pageValueBytes = pageValueBytes;
    this.pageRowLimit = pageRowLimit;
    this.counters = requireNonNull(counters, "counters is null");
  }

  /** The codec of an output chunk made of these input chunks. */
  CompressionCodecName outputCodec(List<ColumnChunkMetaData> chunks) {
    if (rewriteCodec || chunks.isEmpty()) {
      return tableCodec;
    }
    Set<CompressionCodecName> codecs = EnumSet.noneOf(CompressionCodecName.class);
    for (ColumnChunkMetaData chunk : chunks) {
      codecs.add(chunk.getCodec());
    }
    if (codecs.size() == 1) {
      return codecs.iterator().next();
    }
    return codecs.contains(tableCodec) ? tableCodec : chunks.get(0).getCodec();
  }

  void write(ColumnDescriptor descriptor, List<LoadedChunk> chunks) throws IOException {
    List<ColumnChunkPages> pages = new ArrayList<>(chunks.size());
    List<ColumnChunkMetaData> metaData = new ArrayList<>(chunks.size());
    for (LoadedChunk chunk : chunks) {
      metaData.add(chunk.metaData());
    }
    PageCompression compression = compressions.of(outputCodec(metaData)).forColumn();
    DataPageWriter pageWriter = new DataPageWriter(writer, descriptor);
    FilteredPageBuffer buffer =
        new FilteredPageBuffer(
            descriptor,
            compression,
            pageWriter,
            pageValueBytes,
            pageRowLimit,
            plainValues,
            pageBody);
    List<DeletedRowPageFilter> filters = new ArrayList<>(chunks.size());
    List<Boolean> derived = new ArrayList<>(chunks.size());
    long valueCount = 0;
    int dictionaries = 0;
    for (LoadedChunk chunk : chunks) {
      ColumnChunkPages chunkPages =
          ColumnChunkPages.parse(chunk.bytes(), chunk.offset(), chunk.length());
      PageCompression chunkCompression = compressions.of(chunk.metaData().getCodec());
      PageAdapter adapter =
          new PageAdapter(chunkCompression, compression, chunk.addDefinitionLevels());
      DeletedRowPageFilter filter = null;
      if (!chunk.deletedRows().isEmpty()) {
        // the filter rewrites every data page anyway: it adds levels and changes codec itself
        filter =
            new DeletedRowPageFilter(
                descriptor,
                chunk.deletedRows(),
                chunkCompression,
                compression,
                chunk.addDefinitionLevels(),
                buffer,
                pageWriter,
                scratch);
        chunkPages =
            new ColumnChunkPages(adapter.adaptDictionary(chunkPages), chunkPages.dataPages());
      } else if (adapter.changesPages()) {
        chunkPages = adapter.adapt(chunkPages);
      }
      filters.add(filter);
      derived.add(chunk.derived());
      pages.add(chunkPages);
      valueCount += chunk.metaData().getValueCount() - chunk.deletedRows().deletedCount();
      dictionaries += chunkPages.dictionaryPage().isPresent() ? 1 : 0;
    }
    writer.startColumn(descriptor, valueCount, compression.codec());
    if (dictionaries <= 1) {
      writeWithSingleDictionary(descriptor, pageWriter, pages, filters, derived, buffer);
    } else {
      writeWithMergedDictionary(
          descriptor, pageWriter, compression, pages, filters, derived, buffer);
    }
    buffer.flush();
    long nullsRemoved = 0;
    for (DeletedRowPageFilter filter : filters) {
      nullsRemoved += filter == null ? 0 : filter.nullsRemoved();
    }
    writer.invalidateStatistics(
        ChunkStatistics.merge(descriptor.getPrimitiveType(), metaData, nullsRemoved, valueCount));
    writer.endColumn();
  }

  private void writeWithSingleDictionary(
      ColumnDescriptor descriptor,
      DataPageWriter pageWriter,
      List<ColumnChunkPages> pages,
      List<DeletedRowPageFilter> filters,
      List<Boolean> derived,
      FilteredPageBuffer buffer)
      throws IOException {
    for (int index = 0; index < pages.size(); index++) {
      Optional<ParsedPage> dictionary = pages.get(index).dictionaryPage();
      if (dictionary.isPresent()) {
        ParsedPage page = dictionary.get();
        DictionaryPageHeader header = page.header().getDictionary_page_header();
        writer.writeDictionaryPage(
            new DictionaryPage(
                BytesInput.from(page.bytes(), page.dataOffset(), page.compressedSize()),
                page.uncompressedSize(),
                header.getNum_values(),
                DataPageWriter.encoding(header.getEncoding())));
        counters.bytesCopiedVerbatim += page.compressedSize();
      }
    }
    for (int index = 0; index < pages.size(); index++) {
      boolean hasDictionary = pages.get(index).dictionaryPage().isPresent();
      for (ParsedPage page : pages.get(index).dataPages()) {
        if (!hasDictionary && DataPageWriter.valuesEncoding(page).usesDictionary()) {
          throw noDictionaryPage(descriptor);
        }
        if (filters.get(index) != null) {
          writeFiltered(filters.get(index), page, null);
        } else {
          writeVerbatim(buffer, pageWriter, page, derived.get(index));
        }
      }
    }
  }

  private void writeWithMergedDictionary(
      ColumnDescriptor descriptor,
      DataPageWriter pageWriter,
      PageCompression compression,
      List<ColumnChunkPages> pages,
      List<DeletedRowPageFilter> filters,
      List<Boolean> derived,
      FilteredPageBuffer buffer)
      throws IOException {
    DictionaryMerger merger = new DictionaryMerger(maxDictionaryBytes);
    List<DictionaryValues> dictionaries = new ArrayList<>(pages.size());
    List<Optional<int[]>> remaps = new ArrayList<>(pages.size());
    Encoding dictionaryEncoding = null;
    boolean fallback = false;
    for (int index = 0; index < pages.size(); index++) {
      Optional<ParsedPage> dictionaryPage = pages.get(index).dictionaryPage();
      if (dictionaryPage.isEmpty()) {
        dictionaries.add(null);
        remaps.add(Optional.empty());
        continue;
      }
      ParsedPage page = dictionaryPage.get();
      DictionaryPageHeader header = page.header().getDictionary_page_header();
      if (dictionaryEncoding == null) {
        dictionaryEncoding = DataPageWriter.encoding(header.getEncoding());
      }
      byte[] plain =
          compression.decompress(
              page.bytes(), page.dataOffset(), page.compressedSize(), page.uncompressedSize());
      DictionaryValues values =
          DictionaryValues.decode(plain, header.getNum_values(), descriptor.getPrimitiveType());
      Optional<int[]> remap = merger.add(values);
      fallback |= remap.isEmpty();
      dictionaries.add(values);
      remaps.add(remap);
      counters.bytesRewritten += page.compressedSize();
    }
    byte[] mergedPlain = merger.mergedPlainBytes();
    writer.writeDictionaryPage(
        new DictionaryPage(
            BytesInput.from(compression.compress(mergedPlain)),
            mergedPlain.length,
            merger.entryCount(),
            dictionaryEncoding));
    counters.columnChunksWithMergedDictionary += merger.chunksMerged() > 1 ? 1 : 0;
    counters.columnChunksWithPlainFallback += fallback ? 1 : 0;

    int bitWidth = BytesUtils.getWidthFromMaxInt(Math.max(merger.entryCount() - 1, 0));
    DictionaryPageRewriter rewriter =
        new DictionaryPageRewriter(pageWriter, compression, descriptor);
    for (int index = 0; index < pages.size(); index++) {
      Optional<int[]> remap = remaps.get(index);
      boolean verbatimIndices = remap.isPresent() && DictionaryMerger.isIdentity(remap.get());
      DictionaryPageRewriter.Target target =
          remap.isPresent()
              ? DictionaryPageRewriter.Target.remapped(remap.get(), bitWidth)
              : dictionaries.get(index) == null
                  ? null
                  : DictionaryPageRewriter.Target.plain(dictionaries.get(index));
      DeletedRowPageFilter filter = filters.get(index);
      for (ParsedPage page : pages.get(index).dataPages()) {
        boolean keepsIds = !DataPageWriter.valuesEncoding(page).usesDictionary() || verbatimIndices;
        if (!keepsIds && target == null) {
          throw noDictionaryPage(descriptor);
        }
        if (filter != null) {
          writeFiltered(filter, page, keepsIds ? null : target);
        } else if (keepsIds) {
          writeVerbatim(buffer, pageWriter, page, derived.get(index));
        } else {
          buffer.flush();
          rewriter.rewrite(page, target);
          counters.bytesRewritten += page.compressedSize();
        }
      }
    }
  }

  /** Writes {@code page} through {@code filter}, which rewrites it or copies it as it is. */
  private void writeFiltered(
      DeletedRowPageFilter filter, ParsedPage page, DictionaryPageRewriter.Target ids)
      throws IOException {
    if (filter.write(page, ids)) {
      counters.bytesRewritten += page.compressedSize();
    } else {
      counters.bytesCopiedVerbatim += page.compressedSize();
    }
  }

  /**
   * Copies {@code page} as it is, after the rows {@code buffer} gathered before it; a page the
   * merge built itself ({@code derived}: row lineage) is not counted as copied.
   */
  private void writeVerbatim(
      FilteredPageBuffer buffer, DataPageWriter pageWriter, ParsedPage page, boolean derived)
      throws IOException {
    buffer.flush();
    pageWriter.writeVerbatim(page);
    if (!derived) {
      counters.bytesCopiedVerbatim += page.compressedSize();
    }
  }

  private static IOException noDictionaryPage(ColumnDescriptor descriptor) {
    return new IOException(
        "Column "
            + String.join(".", descriptor.getPath())
            + " has a dictionary-encoded page but no dictionary page");
  }
}
