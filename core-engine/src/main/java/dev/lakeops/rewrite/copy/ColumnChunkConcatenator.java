package dev.lakeops.rewrite.copy;

import static java.util.Objects.requireNonNull;

import dev.lakeops.rewrite.copy.LoadedRowGroup.LoadedChunk;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.bytes.BytesUtils;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.format.DictionaryPageHeader;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;

/**
 * Writes one output column chunk from the column chunks of several input row groups by
 * concatenating their pages. With at most one input dictionary every page is copied unchanged;
 * otherwise dictionaries are merged and indices remapped, and chunks whose dictionary no longer
 * fits the limit have their dictionary-encoded pages expanded to PLAIN.
 */
final class ColumnChunkConcatenator {
  private final ParquetFileWriter writer;
  private final PageCompression compression;
  private final long maxDictionaryBytes;
  private final MergeCounters counters;

  ColumnChunkConcatenator(
      ParquetFileWriter writer, PageCompression compression, long maxDictionaryBytes, MergeCounters counters) {
    this.writer = requireNonNull(writer, "writer is null");
    this.compression = requireNonNull(compression, "compression is null");
    this.maxDictionaryBytes = maxDictionaryBytes;
    this.counters = requireNonNull(counters, "counters is null");
  }

  void write(ColumnDescriptor descriptor, List<LoadedChunk> chunks) throws IOException {
    List<ColumnChunkPages> pages = new ArrayList<>(chunks.size());
    List<ColumnChunkMetaData> metaData = new ArrayList<>(chunks.size());
    long valueCount = 0;
    int dictionaries = 0;
    for (LoadedChunk chunk : chunks) {
      ColumnChunkPages chunkPages = ColumnChunkPages.parse(chunk.bytes(), chunk.offset(), chunk.length());
      pages.add(chunkPages);
      metaData.add(chunk.metaData());
      valueCount += chunk.metaData().getValueCount();
      dictionaries += chunkPages.dictionaryPage().isPresent() ? 1 : 0;
    }
    writer.startColumn(descriptor, valueCount, compression.codec());
    DataPageWriter pageWriter = new DataPageWriter(writer, descriptor);
    if (dictionaries <= 1) {
      writeWithSingleDictionary(descriptor, pageWriter, chunks, pages);
    } else {
      writeWithMergedDictionary(descriptor, pageWriter, chunks, pages);
    }
    writer.invalidateStatistics(ChunkStatistics.merge(descriptor.getPrimitiveType(), metaData));
    writer.endColumn();
  }

  private void writeWithSingleDictionary(
      ColumnDescriptor descriptor,
      DataPageWriter pageWriter, List<LoadedChunk> chunks, List<ColumnChunkPages> pages) throws IOException {
    for (int index = 0; index < chunks.size(); index++) {
      Optional<ParsedPage> dictionary = pages.get(index).dictionaryPage();
      if (dictionary.isPresent()) {
        ParsedPage page = dictionary.get();
        DictionaryPageHeader header = page.header().getDictionary_page_header();
        writer.writeDictionaryPage(new DictionaryPage(
            BytesInput.from(chunks.get(index).bytes(), page.dataOffset(), page.compressedSize()),
            page.uncompressedSize(),
            header.getNum_values(),
            DataPageWriter.encoding(header.getEncoding())));
        counters.bytesCopiedVerbatim += page.compressedSize();
      }
    }
    for (int index = 0; index < chunks.size(); index++) {
      boolean hasDictionary = pages.get(index).dictionaryPage().isPresent();
      for (ParsedPage page : pages.get(index).dataPages()) {
        if (!hasDictionary && DataPageWriter.valuesEncoding(page).usesDictionary()) {
          throw new IOException("Column " + String.join(".", descriptor.getPath())
              + " has a dictionary-encoded page but no dictionary page");
        }
        pageWriter.writeVerbatim(page, chunks.get(index).bytes());
        counters.bytesCopiedVerbatim += page.compressedSize();
      }
    }
  }

  private void writeWithMergedDictionary(
      ColumnDescriptor descriptor, DataPageWriter pageWriter, List<LoadedChunk> chunks, List<ColumnChunkPages> pages)
      throws IOException {
    DictionaryMerger merger = new DictionaryMerger(maxDictionaryBytes);
    List<DictionaryValues> dictionaries = new ArrayList<>(chunks.size());
    List<Optional<int[]>> remaps = new ArrayList<>(chunks.size());
    Encoding dictionaryEncoding = null;
    boolean fallback = false;
    for (int index = 0; index < chunks.size(); index++) {
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
      byte[] plain = compression.decompress(
          chunks.get(index).bytes(), page.dataOffset(), page.compressedSize(), page.uncompressedSize());
      DictionaryValues values = DictionaryValues.decode(plain, header.getNum_values(), descriptor.getPrimitiveType());
      Optional<int[]> remap = merger.add(values);
      fallback |= remap.isEmpty();
      dictionaries.add(values);
      remaps.add(remap);
      counters.bytesRewritten += page.compressedSize();
    }
    byte[] mergedPlain = merger.mergedPlainBytes();
    writer.writeDictionaryPage(new DictionaryPage(
        BytesInput.from(compression.compress(mergedPlain)), mergedPlain.length, merger.entryCount(), dictionaryEncoding));
    counters.columnChunksWithMergedDictionary += merger.chunksMerged() > 1 ? 1 : 0;
    counters.columnChunksWithPlainFallback += fallback ? 1 : 0;

    int bitWidth = BytesUtils.getWidthFromMaxInt(Math.max(merger.entryCount() - 1, 0));
    DictionaryPageRewriter rewriter = new DictionaryPageRewriter(pageWriter, compression, descriptor);
    for (int index = 0; index < chunks.size(); index++) {
      byte[] bytes = chunks.get(index).bytes();
      Optional<int[]> remap = remaps.get(index);
      boolean verbatimIndices = remap.isPresent() && DictionaryMerger.isIdentity(remap.get());
      DictionaryPageRewriter.Target target = remap.isPresent()
          ? DictionaryPageRewriter.Target.remapped(remap.get(), bitWidth)
          : dictionaries.get(index) == null ? null : DictionaryPageRewriter.Target.plain(dictionaries.get(index));
      for (ParsedPage page : pages.get(index).dataPages()) {
        if (!DataPageWriter.valuesEncoding(page).usesDictionary() || verbatimIndices) {
          pageWriter.writeVerbatim(page, bytes);
          counters.bytesCopiedVerbatim += page.compressedSize();
        } else if (target == null) {
          throw new IOException("Column " + String.join(".", descriptor.getPath())
              + " has a dictionary-encoded page but no dictionary page");
        } else {
          rewriter.rewrite(page, bytes, target);
          counters.bytesRewritten += page.compressedSize();
        }
      }
    }
  }
}
