package dev.lakeops.rewrite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakeops.catalog.CatalogConnector;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.fs.FileSystem;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.hadoop.HadoopFileIO;
import org.apache.parquet.io.PositionOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IcebergParquetOutputFileTest {
  @TempDir Path directory;

  @Test
  void localDataFilesAreWrittenWithoutAChecksumFileAndReadBackThroughHadoop() throws IOException {
    Path file = directory.resolve("data/part=1/file.parquet");
    byte[] bytes = bytes(3_000_000);
    try (HadoopFileIO io = new HadoopFileIO(CatalogConnector.hadoopConfiguration())) {
      IcebergParquetOutputFile output =
          new IcebergParquetOutputFile(io.newOutputFile(file.toUri().toString()));
      try (PositionOutputStream stream = output.create(0)) {
        stream.write(bytes, 0, 10);
        stream.write(bytes, 10, bytes.length - 10);
        assertThat(stream.getPos()).isEqualTo(bytes.length);
      }

      assertThat(output.writtenLength()).isEqualTo(bytes.length);
      assertThat(Files.readAllBytes(file)).isEqualTo(bytes);
      assertThat(Files.exists(file.resolveSibling(".file.parquet.crc"))).isFalse();
      assertThat(readThroughHadoop(file)).isEqualTo(bytes);
      assertThatThrownBy(() -> output.create(0))
          .isInstanceOf(AlreadyExistsException.class)
          .hasMessageContaining(file.toString());
    }
  }

  @Test
  void overwritingALocalFileDeletesItsStaleChecksumFile() throws IOException {
    Path file = directory.resolve("file.parquet");
    try (FileSystem fileSystem =
        FileSystem.newInstance(file.toUri(), CatalogConnector.hadoopConfiguration())) {
      try (var stream = fileSystem.create(new org.apache.hadoop.fs.Path(file.toUri()), false)) {
        stream.write(bytes(5000));
      }
    }
    assertThat(Files.exists(file.resolveSibling(".file.parquet.crc"))).isTrue();
    byte[] bytes = bytes(7000);
    try (HadoopFileIO io = new HadoopFileIO(CatalogConnector.hadoopConfiguration())) {
      try (PositionOutputStream stream =
          new IcebergParquetOutputFile(io.newOutputFile(file.toUri().toString()))
              .createOrOverwrite(0)) {
        stream.write(bytes);
      }
    }

    assertThat(Files.exists(file.resolveSibling(".file.parquet.crc"))).isFalse();
    assertThat(readThroughHadoop(file)).isEqualTo(bytes);
  }

  /** The file's bytes as Hadoop's checksumming local file system reads them. */
  private static byte[] readThroughHadoop(Path file) throws IOException {
    try (FileSystem fileSystem =
            FileSystem.newInstance(file.toUri(), CatalogConnector.hadoopConfiguration());
        InputStream stream = fileSystem.open(new org.apache.hadoop.fs.Path(file.toUri()))) {
      return stream.readAllBytes();
    }
  }

  private static byte[] bytes(int length) {
    byte[] bytes = new byte[length];
    for (int index = 0; index < length; index++) {
      bytes[index] = (byte) (index * 31 + index / 7);
    }
    return bytes;
  }
}
