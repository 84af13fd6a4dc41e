package dev.lakeops.rewrite.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.hadoop.HadoopFileIO;
import org.apache.iceberg.inmemory.InMemoryFileIO;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Local files are read through java.nio with the bytes Hadoop's stream gives; files of other file
 * systems or FileIOs keep going through the table's FileIO.
 */
class ParquetInputFilesTest {
  @TempDir Path directory;

  @Test
  void localFilesReadTheSameBytesAsThroughHadoop() throws IOException {
    byte[] content = new byte[300_000];
    new Random(7).nextBytes(content);
    Path partition = Files.createDirectories(directory.resolve("day=2026-11-01"));
    Path file = Files.write(partition.resolve("a b.parquet"), content);
    HadoopFileIO io = new HadoopFileIO(new Configuration());
    for (String location : new String[] {"file:" + file, "file://" + file, file.toString()}) {
      InputFile local = new ParquetInputFiles(io).open(dataFile(location, content.length));
      assertThat(local).isInstanceOf(LocalParquetInputFile.class);
      assertThat(local.getLength()).isEqualTo(content.length);
      assertThat(readPieces(local))
          .isEqualTo(readPieces(new IcebergParquetInputFile(io.newInputFile(location))));
    }
  }

  @Test
  void otherLocationsAndFileIosGoThroughTheTablesFileIo() {
    HadoopFileIO hadoop = new HadoopFileIO(new Configuration());
    assertThat(new ParquetInputFiles(hadoop).open(dataFile("file://host/x.parquet", 10)))
        .isInstanceOf(IcebergParquetInputFile.class);
    InMemoryFileIO memory = new InMemoryFileIO();
    memory.addFile("file:/x.parquet", new byte[10]);
    assertThat(new ParquetInputFiles(memory).open(dataFile("file:/x.parquet", 10)))
        .isInstanceOf(IcebergParquetInputFile.class);
  }

  /**
   * The last 8 bytes, a heap buffer from byte 1,000 and 70,000 bytes read in pieces after a seek.
   */
  private static byte[] readPieces(InputFile file) throws IOException {
    try (SeekableInputStream stream = file.newStream()) {
      ByteBuffer out = ByteBuffer.allocate(8 + 5_000 + 70_000 + 1);
      stream.seek(file.getLength() - 8);
      byte[] tail = new byte[8];
      stream.readFully(tail);
      out.put(tail);
      stream.seek(1_000);
      ByteBuffer heap = ByteBuffer.allocate(5_000);
      stream.readFully(heap);
      out.put(heap.flip());
      stream.seek(200_000);
      byte[] pieces = new byte[70_000];
      stream.readFully(pieces, 0, 30_000);
      stream.readFully(pieces, 30_000, 40_000);
      out.put(pieces);
      assertThat(stream.getPos()).isEqualTo(270_000);
      out.put((byte) stream.read());
      return out.array();
    }
  }

  private static DataFile dataFile(String location, long length) {
    return DataFiles.builder(PartitionSpec.unpartitioned())
        .withPath(location)
        .withFormat(FileFormat.PARQUET)
        .withFileSizeInBytes(length)
        .withRecordCount(1)
        .build();
  }
}
