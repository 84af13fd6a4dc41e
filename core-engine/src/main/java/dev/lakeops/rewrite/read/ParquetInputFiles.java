package dev.lakeops.rewrite.read;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.hadoop.HadoopFileIO;
import org.apache.iceberg.io.FileIO;
import org.apache.parquet.io.InputFile;

/**
 * Opens data and delete files for Parquet's reader. Where the table's files go through Hadoop's
 * local file system ({@link HadoopFileIO} with {@code file:} served by a {@link LocalFileSystem}),
 * an unencrypted file on it is read straight through {@code java.nio} ({@link
 * LocalParquetInputFile}): Hadoop's stream stack opens a {@code .crc} file beside every file,
 * checks every 512 bytes against it and looks configuration values up per open, which cost a
 * decoding rewrite of a thousand small files and their thousand delete files as much as their
 * footers. Parquet's own page checksums, where a writer stored them, are checked as before. Every
 * other file is opened through the table's {@link FileIO}.
 */
final class ParquetInputFiles {
  private static final String FILE_SCHEME = "file:";

  private final FileIO io;
  private final boolean localFileSystem;
  private final boolean schemelessIsLocal;

  ParquetInputFiles(FileIO io) {
    this.io = requireNonNull(io, "io is null");
    boolean local = false;
    boolean schemeless = false;
    if (io instanceof HadoopFileIO hadoop && hadoop.conf() != null) {
      Configuration configuration = hadoop.conf();
      try {
        local =
            LocalFileSystem.class.isAssignableFrom(
                FileSystem.getFileSystemClass("file", configuration));
        schemeless = local && "file".equals(FileSystem.getDefaultUri(configuration).getScheme());
      } catch (IOException | RuntimeException e) {
        local = false;
      }
    }
    this.localFileSystem = local;
    this.schemelessIsLocal = schemeless;
  }

  /** {@code file} (a data or delete file of the table) as a Parquet input file. */
  InputFile open(ContentFile<?> file) {
    Optional<Path> local = localFile(file);
    if (local.isPresent()) {
      return new LocalParquetInputFile(local.get(), file.fileSizeInBytes());
    }
    if (file instanceof DataFile data) {
      return new IcebergParquetInputFile(io.newInputFile(data));
    }
    return new IcebergParquetInputFile(io.newInputFile((DeleteFile) file));
  }

  /** The path of {@code file} when it is read straight from the local file system. */
  Optional<Path> localFile(ContentFile<?> file) {
    return localFileSystem && file.keyMetadata() == null
        ? localPath(file.location())
        : Optional.empty();
  }

  /**
   * The local path of {@code location} as Hadoop's local file system resolves it ({@code
   * file:/path}, {@code file:///path}, or {@code /path} when the default file system is the local
   * one; no percent-decoding, as Hadoop's {@code Path} does none); empty for anything else.
   */
  private Optional<Path> localPath(String location) {
    String path;
    if (location.startsWith(FILE_SCHEME + "///")) {
      path = location.substring(FILE_SCHEME.length() + 2);
    } else if (location.startsWith(FILE_SCHEME + "//")) {
      return Optional.empty();
    } else if (location.startsWith(FILE_SCHEME + "/")) {
      path = location.substring(FILE_SCHEME.length());
    } else if (schemelessIsLocal && location.startsWith("/")) {
      path = location;
    } else {
      return Optional.empty();
    }
    if (path.contains("/./") || path.contains("/../") || path.endsWith("/..")) {
      return Optional.empty();
    }
    return Optional.of(Path.of(path));
  }
}
