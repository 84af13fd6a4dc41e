package dev.lakeops.rewrite.copy;

import static java.util.Objects.requireNonNull;

import dev.lakeops.unit.ByteSize;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * How {@link ParquetFileMerger} lays out its output.
 *
 * @param minCopyRowGroupBytes input row groups at least this large (compressed) are copied whole
 * @param targetRowGroupBytes smaller row groups are coalesced into output row groups up to this
 *     size (compressed)
 * @param maxDictionaryBytes largest merged dictionary (PLAIN-encoded bytes) per output column
 *     chunk; chunks whose dictionary does not fit are rewritten as PLAIN pages
 * @param codec the table's codec: an output column chunk whose inputs use several codecs takes it
 *     (pages in other codecs are recompressed, not decoded)
 * @param rewriteCodec whether every page must end up in {@code codec}; by default (false) input
 *     chunks keep the codec they were written with, and row groups in another codec are copied
 *     whole
 * @param zstdLevel the zstd level of the pages a merge compresses (those it rewrites, or
 *     recompresses into zstd); pages copied as they are keep theirs
 * @param pageValueBytes pages the merge writes anew (rows left by deletes) hold at most about this
 *     many bytes of values
 * @param pageRowLimit and at most this many rows
 */
public record MergeSettings(
    ByteSize minCopyRowGroupBytes,
    ByteSize targetRowGroupBytes,
    ByteSize maxDictionaryBytes,
    CompressionCodecName codec,
    boolean rewriteCodec,
    int zstdLevel,
    int pageValueBytes,
    int pageRowLimit) {
  /** Row groups of half the default target or more are already good: copy them whole. */
  public static final ByteSize MIN_COPY_ROW_GROUP_BYTES_DEFAULT = ByteSize.ofMegabytes(64);

  /** Parquet's and Iceberg's default row group size. */
  public static final ByteSize TARGET_ROW_GROUP_BYTES_DEFAULT = ByteSize.ofMegabytes(128);

  /** Parquet's default dictionary page size limit. */
  public static final ByteSize MAX_DICTIONARY_BYTES_DEFAULT = ByteSize.ofMegabytes(1);

  /** Iceberg's default {@code write.parquet.compression-codec}. */
  public static final CompressionCodecName CODEC_DEFAULT = CompressionCodecName.ZSTD;

  /** parquet-java's and Iceberg's default zstd level. */
  public static final int ZSTD_LEVEL_DEFAULT = ZstdPageCompression.DEFAULT_LEVEL;

  /** Iceberg's default {@code write.parquet.page-size-bytes}. */
  public static final int PAGE_VALUE_BYTES_DEFAULT = 1 << 20;

  /** Iceberg's default {@code write.parquet.page-row-limit}. */
  public static final int PAGE_ROW_LIMIT_DEFAULT = 20_000;

  public MergeSettings {
    requireNonNull(minCopyRowGroupBytes, "minCopyRowGroupBytes is null");
    requireNonNull(targetRowGroupBytes, "targetRowGroupBytes is null");
    requireNonNull(maxDictionaryBytes, "maxDictionaryBytes is null");
    requireNonNull(codec, "codec is null");
    if (targetRowGroupBytes.bytes() == 0) {
      throw new IllegalArgumentException(
          "targetRowGroupBytes must be positive: " + targetRowGroupBytes);
    }
    if (pageValueBytes < 1 || pageRowLimit < 1) {
      throw new IllegalArgumentException(
          "pageValueBytes and pageRowLimit must be positive: "
              + pageValueBytes
              + ", "
              + pageRowLimit);
    }
    if (maxDictionaryBytes.bytes() > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "maxDictionaryBytes must be at most 2GB: " + maxDictionaryBytes);
    }
  }

  public static MergeSettings defaults() {
    return new MergeSettings(
        MIN_COPY_ROW_GROUP_BYTES_DEFAULT,
        TARGET_ROW_GROUP_BYTES_DEFAULT,
        MAX_DICTIONARY_BYTES_DEFAULT,
        CODEC_DEFAULT,
        false,
        ZSTD_LEVEL_DEFAULT,
        PAGE_VALUE_BYTES_DEFAULT,
        PAGE_ROW_LIMIT_DEFAULT);
  }

  public MergeSettings withMinCopyRowGroupBytes(ByteSize value) {
    return new MergeSettings(
        value,
        targetRowGroupBytes,
        maxDictionaryBytes,
        codec,
        rewriteCodec,
        zstdLevel,
        pageValueBytes,
        pageRowLimit);
  }

  public MergeSettings withTargetRowGroupBytes(ByteSize value) {
    return new MergeSettings(
        minCopyRowGroupBytes,
        value,
        maxDictionaryBytes,
        codec,
        rewriteCodec,
        zstdLevel,
        pageValueBytes,
        pageRowLimit);
  }

  public MergeSettings withMaxDictionaryBytes(ByteSize value) {
    return new MergeSettings(
        minCopyRowGroupBytes,
        targetRowGroupBytes,
        value,
        codec,
        rewriteCodec,
        zstdLevel,
        pageValueBytes,
        pageRowLimit);
  }

  public MergeSettings withCodec(CompressionCodecName value) {
    return new MergeSettings(
        minCopyRowGroupBytes,
        targetRowGroupBytes,
        maxDictionaryBytes,
        value,
        rewriteCodec,
        zstdLevel,
        pageValueBytes,
        pageRowLimit);
  }

  public MergeSettings withRewriteCodec(boolean value) {
    return new MergeSettings(
        minCopyRowGroupBytes,
        targetRowGroupBytes,
        maxDictionaryBytes,
        codec,
        value,
        zstdLevel,
        pageValueBytes,
        pageRowLimit);
  }

  public MergeSettings withZstdLevel(int value) {
    return new MergeSettings(
        minCopyRowGroupBytes,
        targetRowGroupBytes,
        maxDictionaryBytes,
        codec,
        rewriteCodec,
        value,
        pageValueBytes,
        pageRowLimit);
  }

  /** The size limits of the pages the merge writes anew: the table's page size and row limit. */
  public MergeSettings withPageLimits(int valueBytes, int rowLimit) {
    return new MergeSettings(
        minCopyRowGroupBytes,
        targetRowGroupBytes,
        maxDictionaryBytes,
        codec,
        rewriteCodec,
        zstdLevel,
        valueBytes,
        rowLimit);
  }

  /**
   * Whether a row group of an input that fits the output unchanged can be copied byte for byte:
   * always, unless {@link #rewriteCodec} asks for {@link #codec} and some chunk uses another.
   */
  boolean keepsCodecOf(BlockMetaData block) {
    return !rewriteCodec
        || block.getColumns().stream().allMatch(chunk -> chunk.getCodec() == codec);
  }
}
