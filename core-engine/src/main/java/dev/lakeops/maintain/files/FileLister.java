package dev.lakeops.maintain.files;

import java.util.stream.Stream;
import org.apache.iceberg.io.FileIO;

/**
 * Lists every file under a location, recursively, skipping hidden names ({@code .crc}, {@code
 * _SUCCESS}, {@code .hidden/}; a directory such as {@code _key=1} is a partition, not hidden). The
 * returned stream holds threads or connections: always close it.
 */
public interface FileLister {
  Stream<ListedFile> list(String location);

  /**
   * The best lister for a table's {@link FileIO}, chosen per location: a location on a file system
   * with real directories (local disk, HDFS) through a Hadoop {@code HadoopFileIO} is walked in
   * parallel, one task per directory; anything else, object stores above all, is listed by prefix
   * through the FileIO's own {@code SupportsPrefixOperations.listPrefix} (one flat, paged listing,
   * however deep the partition tree).
   */
  static FileLister forFileIo(FileIO io, int parallelism) {
    return new FileIoLister(io, parallelism);
  }

  /** Whether a file or directory name is hidden from orphan removal. */
  static boolean isHidden(String name) {
    return (name.startsWith(".") || name.startsWith("_")) && !name.contains("=");
  }
}
