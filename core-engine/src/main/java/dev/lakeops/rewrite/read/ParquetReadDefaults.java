package dev.lakeops.rewrite.read;

import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.conf.HadoopParquetConfiguration;
import org.apache.parquet.hadoop.ParquetInputFormat;
import org.apache.parquet.hadoop.util.HadoopCodecs;

/**
 * Parquet read options over one Hadoop configuration, loaded once per JVM. {@code
 * ParquetReadOptions.builder()} creates a fresh Hadoop {@code Configuration} each time and parses
 * its default XML resources on first use: per input file, that was an eighth of a sort's CPU time.
 */
final class ParquetReadDefaults {
  private static final Configuration HADOOP_CONFIGURATION = loaded();

  private ParquetReadDefaults() {}

  /**
   * Read options for one file, with codecs of its own ({@link PageCodecs}); cheap, and safe to call
   * from several threads.
   */
  static ParquetReadOptions readOptions() {
    HadoopParquetConfiguration configuration = new HadoopParquetConfiguration(HADOOP_CONFIGURATION);
    return ParquetReadOptions.builder(configuration)
        .withCodecFactory(new PageCodecs(HadoopCodecs.newFactory(configuration, 0)))
        .build();
  }

  private static Configuration loaded() {
    Configuration configuration = new Configuration();
    // reading any key parses the default resources now, once, instead of in each copy
    configuration.get("fs.defaultFS");
    // Hadoop vectored reads (on by default since parquet-java 1.16) can fall back to plain reads
    // while asynchronous reads still use the stream (apache/parquet-java#3719): read plainly
    configuration.setBoolean(ParquetInputFormat.HADOOP_VECTORED_IO_ENABLED, false);
    return configuration;
  }
}
