package dev.lakeops.maintain.files;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.hadoop.fs.Path;
import org.apache.iceberg.hadoop.HadoopFileIO;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.SupportsPrefixOperations;

/**
 * Picks how to list a location of a table's {@link FileIO}: a directory walk where the storage has
 * directories and the FileIO is Hadoop's, else a prefix listing through the FileIO itself.
 */
final class FileIoLister implements FileLister {
  /** Schemes of Hadoop file systems with real directories; any other is listed by prefix. */
  private static final Set<String> DIRECTORY_SCHEMES = Set.of("", "file", "hdfs", "viewfs");

  private final FileIO io;
  private final int parallelism;

  FileIoLister(FileIO io, int parallelism) {
    this.io = requireNonNull(io, "io is null");
    if (parallelism < 1) {
      throw new IllegalArgumentException(
          "Listing parallelism must be at least 1, got " + parallelism);
    }
    this.parallelism = parallelism;
  }

  @Override
  public Stream<ListedFile> list(String location) {
    requireNonNull(location, "location is null");
    return listerFor(location).list(location);
  }

  FileLister listerFor(String location) {
    if (io instanceof HadoopFileIO hadoop && hasDirectories(location)) {
      return new HadoopDirectoryLister(hadoop.conf(), parallelism);
    }
    if (io instanceof SupportsPrefixOperations prefixes) {
      return new PrefixFileLister(prefixes);
    }
    throw new IllegalArgumentException(
        "FileIO "
            + io.getClass().getName()
            + " cannot list "
            + location
            + " (it does not implement SupportsPrefixOperations): orphan files cannot be found for"
            + " this table; use a FileIO that lists by prefix, such as S3FileIO or HadoopFileIO");
  }

  private static boolean hasDirectories(String location) {
    URI uri = new Path(location).toUri();
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    return DIRECTORY_SCHEMES.contains(scheme);
  }
}
