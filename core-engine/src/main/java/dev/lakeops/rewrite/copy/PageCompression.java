package dev.lakeops.rewrite.copy;

import java.io.IOException;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/** Decompresses and compresses page bodies with one codec; results are owned byte arrays. */
interface PageCompression {
  CompressionCodecName codec();

  byte[] decompress(byte[] bytes, int offset, int length, int uncompressedLength)
      throws IOException;

  byte[] compress(byte[] uncompressed) throws IOException;
}
