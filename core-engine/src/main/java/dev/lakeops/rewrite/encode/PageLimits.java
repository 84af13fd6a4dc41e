package dev.lakeops.rewrite.encode;

/**
 * When a column chunk encoder ends a page and gives up on its dictionary.
 *
 * @param pageSizeBytes a page ends once its encoded values reach this size ({@code
 *     write.parquet.page-size-bytes})
 * @param pageRowLimit a page ends at this many rows ({@code write.parquet.page-row-limit})
 * @param dictionarySizeBytes the dictionary's PLAIN size above which the chunk falls back to PLAIN
 *     values ({@code write.parquet.dict-size-bytes})
 */
public record PageLimits(int pageSizeBytes, int pageRowLimit, int dictionarySizeBytes) {
  public PageLimits {
    if (pageSizeBytes <= 0 || pageRowLimit <= 0 || dictionarySizeBytes < 0) {
      throw new IllegalArgumentException(
          "Page limits must be positive: page size "
              + pageSizeBytes
              + ", page rows "
              + pageRowLimit
              + ", dictionary size "
              + dictionarySizeBytes);
    }
  }
}
