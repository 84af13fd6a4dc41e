package dev.lakeops.rewrite.copy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.apache.iceberg.io.InputFile;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.bytes.BytesUtils;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;

/** Reads a Parquet footer with one read of the file's tail for the common small footer. */
public final class ParquetFooterReader {
  private static final int TAIL_BYTES = 64 * 1024;
  private static final byte[] MAGIC = "PAR1".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] ENCRYPTED_MAGIC = "PARE".getBytes(StandardCharsets.US_ASCII);

  // A plain configuration: ParquetReadOptions.builder() makes a Hadoop Configuration, which parses
  // Hadoop's default resources (core-default.xml) again for every reader made
  private final ParquetMetadataConverter converter =
      new ParquetMetadataConverter(
          ParquetReadOptions.builder(new PlainParquetConfiguration()).build());

  /**
   * @throws MergeIneligibleException if the footer is encrypted
   * @throws UncheckedIOException if the file cannot be read or is not Parquet
   */
  public InputFooter read(InputFile file) {
    try {
      return new InputFooter(file.location(), readMetadata(file));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the Parquet footer of " + file.location(), e);
    }
  }

  private ParquetMetadata readMetadata(InputFile file) throws IOException {
    long length = file.getLength();
    if (length < 12) {
      throw new IOException("Too short to be a Parquet file: " + length + " bytes");
    }
    int tailLength = (int) Math.min(length, TAIL_BYTES);
    byte[] tail = new byte[tailLength];
    try (BufferedSeekableInputStream stream =
        new BufferedSeekableInputStream(InputStreams.open(file), tailLength)) {
      stream.seek(length - tailLength);
      stream.readFully(tail);
      byte[] magic = Arrays.copyOfRange(tail, tailLength - 4, tailLength);
      if (Arrays.equals(magic, ENCRYPTED_MAGIC)) {
        throw new MergeIneligibleException(
            MergeEligibility.ineligible(
                FallbackReasons.ENCRYPTED,
                List.of("input " + file.location() + " has an encrypted footer")));
      }
      if (!Arrays.equals(magic, MAGIC)) {
        throw new IOException("Not a Parquet file: no magic number at its end");
      }
      int footerLength = BytesUtils.readIntLittleEndian(tail, tailLength - 8);
      if (footerLength < 0 || footerLength > length - 12) {
        throw new IOException("Corrupt footer length " + footerLength);
      }
      if (footerLength + 8 <= tailLength) {
        return converter.readParquetMetadata(
            new ByteArrayInputStream(tail, tailLength - 8 - footerLength, footerLength),
            ParquetMetadataConverter.NO_FILTER);
      }
      byte[] footer = new byte[footerLength];
      stream.seek(length - 8 - footerLength);
      stream.readFully(footer);
      return converter.readParquetMetadata(
          new ByteArrayInputStream(footer), ParquetMetadataConverter.NO_FILTER);
    }
  }
}
