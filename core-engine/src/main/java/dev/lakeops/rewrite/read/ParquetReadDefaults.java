package dev.lakeops.rewrite.read;

import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.conf.HadoopParquetConfiguration;

/**
 * Parquet read options over one Hadoop configuration, loaded once per JVM. {@code
 * ParquetReadOptions.builder()} creates a fresh Hadoop {@code Configuration} each time and parses
 * its default XML resources on first use: per input file, that was an eighth of a sort's CPU time.
 */
final class ParquetReadDefaults {
  private static final Configuration HADOOP_CONFIGURATION = loaded();

  private ParquetReadDefaults() {}

  /** Read options for one file; cheap, and safe to call from several threads. */
  static ParquetReadOptions readOptions() {
    return ParquetReadOptions.builder(new HadoopParquetConfiguration(HADOOP_CONFIGURATION)).build();
  }

  private static Configuration loaded() {
    Configuration configuration = new Configuration();
    // reading any key parses the default resources now, once, instead of in each copy
    configuration.get("fs.defaultFS");
    return configuration;
  }
}
