package dev.lakeops.cli;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;
import org.sqlite.SQLiteJDBCLoader;
import org.sqlite.util.LibraryLoaderUtil;
import org.xerial.snappy.OSInfo;
import org.xerial.snappy.SnappyLoader;

/**
 * A native library a jar carries, kept as one copy in a directory the launcher names ({@code
 * -Dlakeops.native-cache}, {@code lakeops-cli/target/native}). Left alone, SQLite's JDBC driver
 * (the run store, JDBC catalogs) and snappy-java (Avro's codecs, reached by every manifest list
 * read) write their library from the jar to the temporary directory on every run and compare the
 * two copies byte by byte. The copy is written once per library version, whole (a temporary file
 * moved into place), and the loader is pointed at it through its path and name properties; when
 * anything fails the loader loads its library its own way.
 *
 * @param directoryPrefix the kept copy's directory, before the library's version
 * @param pathProperty the loader's property naming the directory it loads from
 * @param nameProperty the loader's property naming the library file in that directory
 * @param anchor a class of the loader's jar, to read the library from
 * @param resourceFolder the library's folder in the jar, for this platform
 * @param fileName the library's file name, for this platform
 * @param version the loader's version
 */
record KeptNativeLibrary(
    String directoryPrefix,
    String pathProperty,
    String nameProperty,
    Class<?> anchor,
    Supplier<String> resourceFolder,
    Supplier<String> fileName,
    Supplier<String> version) {
  /** The directory the copies live in; without it nothing changes. */
  static final String CACHE_PROPERTY = "lakeops.native-cache";

  static final KeptNativeLibrary SQLITE =
      new KeptNativeLibrary(
          "sqlite-jdbc-",
          "org.sqlite.lib.path",
          "org.sqlite.lib.name",
          SQLiteJDBCLoader.class,
          LibraryLoaderUtil::getNativeLibResourcePath,
          LibraryLoaderUtil::getNativeLibName,
          SQLiteJDBCLoader::getVersion);

  static final KeptNativeLibrary SNAPPY =
      new KeptNativeLibrary(
          "snappy-java-",
          "org.xerial.snappy.lib.path",
          "org.xerial.snappy.lib.name",
          SnappyLoader.class,
          () -> "/org/xerial/snappy/native/" + OSInfo.getNativeLibFolderPathForCurrentOS(),
          () -> System.mapLibraryName("snappyjava"),
          SnappyLoader::getVersion);

  KeptNativeLibrary {
    requireNonNull(directoryPrefix, "directoryPrefix is null");
    requireNonNull(pathProperty, "pathProperty is null");
    requireNonNull(nameProperty, "nameProperty is null");
    requireNonNull(anchor, "anchor is null");
    requireNonNull(resourceFolder, "resourceFolder is null");
    requireNonNull(fileName, "fileName is null");
    requireNonNull(version, "version is null");
  }

  /** Points the command line's loaders at their kept copies; see {@link #useKeptCopy()}. */
  static void useKeptCopies() {
    SQLITE.useKeptCopy();
    SNAPPY.useKeptCopy();
  }

  /** Sets the loader's library path and name to the kept copy, writing it first if needed. */
  void useKeptCopy() {
    synchronized (KeptNativeLibrary.class) {
      String cache = System.getProperty(CACHE_PROPERTY);
      if (cache == null || System.getProperty(pathProperty) != null) {
        return;
      }
      try {
        String name = fileName.get();
        Path directory = Path.of(cache, directoryPrefix + version.get());
        Path library = directory.resolve(name);
        if (!Files.isRegularFile(library) && !copyFromJar(name, library)) {
          return;
        }
        System.setProperty(pathProperty, directory.toString());
        System.setProperty(nameProperty, name);
      } catch (IOException | RuntimeException | LinkageError e) {
        // the loader extracts and loads its library as it always does
      }
    }
  }

  private boolean copyFromJar(String name, Path library) throws IOException {
    try (InputStream in = anchor.getResourceAsStream(resourceFolder.get() + "/" + name)) {
      if (in == null) {
        return false;
      }
      WholeFileWrites.write(in, library);
      return true;
    }
  }
}
