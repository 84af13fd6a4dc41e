package dev.lakeops.rewrite.encode;

import com.github.luben.zstd.Zstd;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Optional;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.page.PageWriter;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputCompressor;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * Compresses Parquet pages with zstd in one call per page, through one compression context reused
 * for every page of a file. parquet-java's codec opens a zstd stream per page without telling it
 * the page's size, so every page pays for a new context sized for unbounded input; a one-shot call
 * knows the size and sizes its tables to the page. The frames are ordinary zstd frames (with their
 * content size) that every Parquet reader decodes. The compressed bytes returned are valid until
 * the next call, which is how parquet-java's page writer uses them (it copies them at once).
 *
 * <p>Each column's pages are compressed at the table's level or a lower one ({@link
 * ZstdLevelChoice}): a column's page writer, wrapped by {@link #pageWriterOf}, names its column
 * before each page it hands on.
 */
public final class ZstdPageCompressor implements BytesInputCompressor {
  /** parquet-java's default level ({@code parquet.compression.codec.zstd.level}). */
  private static final int DEFAULT_LEVEL = 3;

  private final ZstdLevelChoice levels;
  private final ZstdLevelChoice.Column unnamedColumn;
  private final PageInput input = new PageInput();
  private ZstdLevelChoice.Column column;
  private byte[] output = new byte[64 * 1024];

  public ZstdPageCompressor(int level) {
    this.levels = new ZstdLevelChoice(level);
    this.unnamedColumn = levels.newColumn();
    this.column = unnamedColumn;
  }

  /** A new column's level choice, for {@link #pageWriterOf}; keep it for the column's chunks. */
  public ZstdLevelChoice.Column newColumn() {
    return levels.newColumn();
  }

  /** {@code pages}, naming {@code pagesColumn} to this compressor before each page it writes. */
  public PageWriter pageWriterOf(PageWriter pages, ZstdLevelChoice.Column pagesColumn) {
    return new ColumnNamingPageWriter(pages, () -> column = pagesColumn);
  }

  /**
   * A compressor at the level of table property {@code write.parquet.compression-level}, if set.
   */
  public static ZstdPageCompressor atTableLevel(Optional<String> level) {
    String text = level.orElse(String.valueOf(DEFAULT_LEVEL));
    try {
      return new ZstdPageCompressor(Integer.parseInt(text.trim()));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "Invalid zstd level '"
              + text
              + "' in table property write.parquet.compression-level: use a whole number",
          e);
    }
  }

  @Override
  public BytesInput compress(BytesInput bytes) throws IOException {
    input.reset();
    bytes.writeAllTo(input);
    int bound = (int) Zstd.compressBound(input.size());
    if (output.length < bound) {
      output = new byte[Math.max(bound, 2 * output.length)];
    }
    int written = levels.compress(column, output, input.buffer(), 0, input.size());
    column = unnamedColumn;
    return BytesInput.from(output, 0, written);
  }

  @Override
  public CompressionCodecName getCodecName() {
    return CompressionCodecName.ZSTD;
  }

  @Override
  public void release() {
    levels.close();
  }

  /** A byte stream whose array is read in place. */
  private static final class PageInput extends ByteArrayOutputStream {
    PageInput() {
      super(64 * 1024);
    }

    byte[] buffer() {
      return buf;
    }
  }
}
