package dev.lakeops.rewrite.copy;

import static java.util.Objects.requireNonNull;

import org.apache.parquet.hadoop.metadata.ParquetMetadata;

/**
 * The footer of one input file, named by its location for messages.
 *
 * @param location where the file lives
 * @param footer its Parquet footer
 */
public record InputFooter(String location, ParquetMetadata footer) {
  public InputFooter {
    requireNonNull(location, "location is null");
    requireNonNull(footer, "footer is null");
  }
}
