package dev.lakeops.catalog;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.attribute.PosixFilePermissions;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * Hadoop's local file system ({@code file:}), checksum files included, that sets permissions
 * through {@code java.nio} instead of a {@code chmod} child process. Without Hadoop's native
 * library (LakeOps ships none) {@link RawLocalFileSystem} starts {@code chmod} for every file it
 * creates and again for its {@code .crc} file: 86 processes in a 500-file compaction.
 */
public final class LocalFileSystemWithoutChmodProcesses extends LocalFileSystem {
  public LocalFileSystemWithoutChmodProcesses() {
    super(new NioPermissions());
  }

  /** The raw local file system with {@link #setPermission} done in process. */
  static final class NioPermissions extends RawLocalFileSystem {
    @Override
    public void setPermission(Path path, FsPermission permission) throws IOException {
      if (permission.getStickyBit()) {
        super.setPermission(path, permission);
        return;
      }
      try {
        Files.setPosixFilePermissions(
            pathToFile(path).toPath(), PosixFilePermissions.fromString(permission.toString()));
      } catch (NoSuchFileException e) {
        throw new FileNotFoundException("File " + path + " does not exist");
      } catch (UnsupportedOperationException e) {
        super.setPermission(path, permission);
      }
    }
  }
}
