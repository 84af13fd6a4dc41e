package dev.lakeops.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteJDBCLoader;
import org.sqlite.util.LibraryLoaderUtil;

class SqliteNativeLibraryTest {
  @TempDir Path cache;

  @AfterEach
  void clearProperties() {
    System.clearProperty(SqliteNativeLibrary.CACHE_PROPERTY);
    System.clearProperty("org.sqlite.lib.path");
    System.clearProperty("org.sqlite.lib.name");
  }

  @Test
  void keepsOneCopyOfTheDriversLibraryAndPointsTheDriverAtIt() throws Exception {
    System.setProperty(SqliteNativeLibrary.CACHE_PROPERTY, cache.toString());
    System.clearProperty("org.sqlite.lib.path");

    SqliteNativeLibrary.useKeptCopy();

    String name = LibraryLoaderUtil.getNativeLibName();
    Path directory = cache.resolve("sqlite-jdbc-" + SQLiteJDBCLoader.getVersion());
    assertThat(System.getProperty("org.sqlite.lib.path")).isEqualTo(directory.toString());
    assertThat(System.getProperty("org.sqlite.lib.name")).isEqualTo(name);
    byte[] inJar;
    try (InputStream in =
        SQLiteJDBCLoader.class.getResourceAsStream(
            LibraryLoaderUtil.getNativeLibResourcePath() + "/" + name)) {
      inJar = in.readAllBytes();
    }
    assertThat(Files.readAllBytes(directory.resolve(name))).isEqualTo(inJar);
    try (java.util.stream.Stream<Path> files = Files.list(directory)) {
      assertThat(files).containsExactly(directory.resolve(name));
    }
  }

  @Test
  void withoutACacheDirectoryTheDriverIsLeftAlone() {
    System.clearProperty("org.sqlite.lib.path");

    SqliteNativeLibrary.useKeptCopy();

    assertThat(System.getProperty("org.sqlite.lib.path")).isNull();
  }
}
