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
import org.xerial.snappy.OSInfo;
import org.xerial.snappy.SnappyLoader;

class KeptNativeLibraryTest {
  @TempDir Path cache;

  @AfterEach
  void clearProperties() {
    System.clearProperty(KeptNativeLibrary.CACHE_PROPERTY);
    System.clearProperty("org.sqlite.lib.path");
    System.clearProperty("org.sqlite.lib.name");
    System.clearProperty("org.xerial.snappy.lib.path");
    System.clearProperty("org.xerial.snappy.lib.name");
  }

  @Test
  void keepsOneCopyOfSnappysLibraryAndPointsItsLoaderAtIt() throws Exception {
    System.setProperty(KeptNativeLibrary.CACHE_PROPERTY, cache.toString());

    KeptNativeLibrary.SNAPPY.useKeptCopy();

    String name = System.mapLibraryName("snappyjava");
    Path directory = cache.resolve("snappy-java-" + SnappyLoader.getVersion());
    assertThat(System.getProperty("org.xerial.snappy.lib.path")).isEqualTo(directory.toString());
    assertThat(System.getProperty("org.xerial.snappy.lib.name")).isEqualTo(name);
    byte[] inJar;
    try (InputStream in =
        SnappyLoader.class.getResourceAsStream(
            "/org/xerial/snappy/native/"
                + OSInfo.getNativeLibFolderPathForCurrentOS()
                + "/"
                + name)) {
      inJar = in.readAllBytes();
    }
    assertThat(Files.readAllBytes(directory.resolve(name))).isEqualTo(inJar);
  }

  @Test
  void keepsOneCopyOfTheDriversLibraryAndPointsTheDriverAtIt() throws Exception {
    System.setProperty(KeptNativeLibrary.CACHE_PROPERTY, cache.toString());
    System.clearProperty("org.sqlite.lib.path");

    KeptNativeLibrary.SQLITE.useKeptCopy();

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

    KeptNativeLibrary.SQLITE.useKeptCopy();

    assertThat(System.getProperty("org.sqlite.lib.path")).isNull();
  }
}
