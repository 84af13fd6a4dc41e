package dev.lakeops.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalFileSystemWithoutChmodProcessesTest {
  @TempDir java.nio.file.Path directory;

  @Test
  void createsFilesWithChecksumsAndSetsPermissionsInProcess() throws IOException {
    try (FileSystem fileSystem = new LocalFileSystemWithoutChmodProcesses()) {
      fileSystem.initialize(
          java.net.URI.create("file:///"), CatalogConnector.hadoopConfiguration());
      Path file = new Path(directory.resolve("data.parquet").toUri());
      try (FSDataOutputStream out = fileSystem.create(file, false)) {
        out.write(new byte[] {1, 2, 3});
      }
      fileSystem.setPermission(file, new FsPermission((short) 0640));

      assertThat(Files.exists(directory.resolve(".data.parquet.crc"))).isTrue();
      assertThat(Files.getPosixFilePermissions(directory.resolve("data.parquet")))
          .isEqualTo(PosixFilePermissions.fromString("rw-r-----"));
      assertThat(Files.getPosixFilePermissions(directory.resolve(".data.parquet.crc")))
          .isEqualTo(PosixFilePermissions.fromString("rw-r-----"));
      assertThatThrownBy(
              () ->
                  fileSystem.setPermission(
                      new Path(directory.resolve("missing").toUri()),
                      new FsPermission((short) 0644)))
          .isInstanceOf(FileNotFoundException.class)
          .hasMessageContaining("missing does not exist");
    }
  }

  @Test
  void catalogConfigurationServesLocalFilesWithIt() {
    assertThat(CatalogConnector.hadoopConfiguration().get("fs.file.impl"))
        .isEqualTo(LocalFileSystemWithoutChmodProcesses.class.getName());
  }

  @Test
  void catalogConfigurationBuffersStreamsInQuarterMegabytes() throws IOException {
    assertThat(CatalogConnector.hadoopConfiguration().getInt("io.file.buffer.size", 0))
        .isEqualTo(256 * 1024);
    try (FileSystem fileSystem = new LocalFileSystemWithoutChmodProcesses()) {
      fileSystem.initialize(
          java.net.URI.create("file:///"), CatalogConnector.hadoopConfiguration());
      Path file = new Path(directory.resolve("large.parquet").toUri());
      byte[] bytes = new byte[1_000_003];
      new java.util.Random(7).nextBytes(bytes);
      try (FSDataOutputStream out = fileSystem.create(file, false)) {
        out.write(bytes, 0, 5);
        out.write(bytes, 5, bytes.length - 5);
      }
      assertThat(Files.readAllBytes(directory.resolve("large.parquet"))).isEqualTo(bytes);
      try (org.apache.hadoop.fs.FSDataInputStream in = fileSystem.open(file)) {
        byte[] read = new byte[bytes.length];
        in.readFully(0, read);
        assertThat(read).isEqualTo(bytes);
      }
    }
  }
}
