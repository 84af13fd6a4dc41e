package dev.lakeops.rewrite;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.util.PropertyUtil;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * The table's Parquet write properties, read once: codec, row-group, page and dictionary sizes.
 *
 * @param codec the compression codec ({@code write.parquet.compression-codec})
 * @param compressionLevel the codec level, when set ({@code write.parquet.compression-level})
 * @param rowGroupSizeBytes {@code write.parquet.row-group-size-bytes}
 * @param pageSizeBytes {@code write.parquet.page-size-bytes}
 * @param pageRowLimit {@code write.parquet.page-row-limit}
 * @param dictionarySizeBytes {@code write.parquet.dict-size-bytes}
 * @param usesBloomFilters whether any column asks for a bloom filter
 */
public record ParquetWriteSettings(
    CompressionCodecName codec,
    Optional<String> compressionLevel,
    long rowGroupSizeBytes,
    int pageSizeBytes,
    int pageRowLimit,
    int dictionarySizeBytes,
    boolean usesBloomFilters) {

  public static ParquetWriteSettings of(Table table) {
    Map<String, String> properties = table.properties();
    String codec =
        properties.getOrDefault(
            TableProperties.PARQUET_COMPRESSION,
            TableProperties.PARQUET_COMPRESSION_DEFAULT_SINCE_1_4_0);
    return new ParquetWriteSettings(
        codecNamed(codec),
        Optional.ofNullable(properties.get(TableProperties.PARQUET_COMPRESSION_LEVEL)),
        PropertyUtil.propertyAsLong(
            properties,
            TableProperties.PARQUET_ROW_GROUP_SIZE_BYTES,
            TableProperties.PARQUET_ROW_GROUP_SIZE_BYTES_DEFAULT),
        PropertyUtil.propertyAsInt(
            properties,
            TableProperties.PARQUET_PAGE_SIZE_BYTES,
            TableProperties.PARQUET_PAGE_SIZE_BYTES_DEFAULT),
        PropertyUtil.propertyAsInt(
            properties,
            TableProperties.PARQUET_PAGE_ROW_LIMIT,
            TableProperties.PARQUET_PAGE_ROW_LIMIT_DEFAULT),
        PropertyUtil.propertyAsInt(
            properties,
            TableProperties.PARQUET_DICT_SIZE_BYTES,
            TableProperties.PARQUET_DICT_SIZE_BYTES_DEFAULT),
        properties.keySet().stream()
            .anyMatch(key -> key.startsWith("write.parquet.bloom-filter-enabled.column.")));
  }

  /** These settings with another row-group size. */
  public ParquetWriteSettings withRowGroupSizeBytes(long bytes) {
    return new ParquetWriteSettings(
        codec,
        compressionLevel,
        bytes,
        pageSizeBytes,
        pageRowLimit,
        dictionarySizeBytes,
        usesBloomFilters);
  }

  private static CompressionCodecName codecNamed(String name) {
    String normalized = name.toUpperCase(Locale.ROOT);
    if (normalized.equals("UNCOMPRESSED") || normalized.equals("NONE")) {
      return CompressionCodecName.UNCOMPRESSED;
    }
    try {
      return CompressionCodecName.valueOf(normalized);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "Unsupported Parquet codec '"
              + name
              + "' in table property "
              + TableProperties.PARQUET_COMPRESSION,
          e);
    }
  }
}
