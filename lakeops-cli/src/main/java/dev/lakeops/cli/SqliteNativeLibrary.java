package dev.lakeops.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.sqlite.SQLiteJDBCLoader;
import org.sqlite.util.LibraryLoaderUtil;

/**
 * Points SQLite's JDBC driver at a copy of its native library kept in a directory the launcher
 * names ({@code -Dlakeops.native-cache}, {@code lakeops-cli/target/native}). Left alone, the driver
 * writes the library from its jar to the temporary directory on every run and compares the two
 * copies byte by byte, a twelfth of a small compaction's CPU. The copy is written once per driver
 * version, whole (a temporary file moved into place); when anything fails the driver loads the
 * library its own way.
 */
final class SqliteNativeLibrary {
  /** The directory the copies live in; without it nothing changes. */
  static final String CACHE_PROPERTY = "lakeops.native-cache";

  private static final String PATH_PROPERTY = "org.sqlite.lib.path";
  private static final String NAME_PROPERTY = "org.sqlite.lib.name";

  private SqliteNativeLibrary() {}

  /** Sets the driver's library path and name to the kept copy, writing it first if needed. */
  static synchronized void useKeptCopy() {
    String cache = System.getProperty(CACHE_PROPERTY);
    if (cache == null || System.getProperty(PATH_PROPERTY) != null) {
      return;
    }
    try {
      String name = LibraryLoaderUtil.getNativeLibName();
      Path directory = Path.of(cache, "sqlite-jdbc-" + SQLiteJDBCLoader.getVersion());
      Path library = directory.resolve(name);
      if (!Files.isRegularFile(library) && !copyFromJar(name, directory, library)) {
        return;
      }
      System.setProperty(PATH_PROPERTY, directory.toString());
      System.setProperty(NAME_PROPERTY, name);
    } catch (IOException | RuntimeException e) {
      // the driver extracts and loads its library as it always does
    }
  }

  private static boolean copyFromJar(String name, Path directory, Path library) throws IOException {
    String resource = LibraryLoaderUtil.getNativeLibResourcePath() + "/" + name;
    try (InputStream in = SQLiteJDBCLoader.class.getResourceAsStream(resource)) {
      if (in == null) {
        return false;
      }
      Files.createDirectories(directory);
      Path temporary = Files.createTempFile(directory, name, ".tmp");
      try {
        Files.copy(in, temporary, StandardCopyOption.REPLACE_EXISTING);
        Files.move(temporary, library, StandardCopyOption.ATOMIC_MOVE);
      } finally {
        Files.deleteIfExists(temporary);
      }
      return true;
    }
  }
}
