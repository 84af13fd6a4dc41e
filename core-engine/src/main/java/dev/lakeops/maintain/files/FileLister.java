package dev.lakeops.maintain.files;

import java.util.stream.Stream;
import org.apache.iceberg.hadoop.HadoopFileIO;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.SupportsPrefixOperations;

/**
 * Lists every file under a location, recursively, skipping hidden names ({@code .crc}, {@code
 * _SUCCESS}, {@code .hidden/}; a directory such as {@code _key=1} is a partition, not hidden). The
 * returned stream holds threads or connections: always close it.
 */
public interface FileLister {
  Stream<ListedFile> list(String location);

  /**
   * The best lister for a table's {@link FileIO}: Hadoop file systems are walked in parallel, one
   * task per directory; any other FileIO that supports prefix listing is listed through it.
   */
  static FileLister forFileIo(FileIO io, int parallelism) {
    if (io instanceof HadoopFileIO hadoop) {
      return new HadoopDirectoryLister(hadoop.conf(), parallelism);
    }
    if (io instanceof SupportsPrefixOperations prefixes) {
      return new PrefixFileLister(prefixes);
    }
    throw new IllegalArgumentException(
        "FileIO "
            + io.getClass().getName()
            + " cannot list files (it does not implement "
            + "SupportsPrefixOperations); orphan files cannot be found for this table");
  }

  /** Whether a file or directory name is hidden from orphan removal. */
  static boolean isHidden(String name) {
    return (name.startsWith(".") || name.startsWith("_")) && !name.contains("=");
  }
}
