package dev.lakeops.cli;

import com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider;
import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Puts the Amazon Corretto Crypto Provider (native hashing and MACs from AWS-LC) first among the
 * JVM's security providers, where its native library loads (Linux on x86-64). S3 request signing
 * hashes every byte uploaded over plain HTTP and signs every request: the quick-start JVM, which
 * compiles with C1 only, runs the JDK's own SHA-256 at about a tenth of the native speed. Elsewhere
 * the JDK's providers stay as they are.
 *
 * <p>Two things keep the provider off a short command's critical path. It is installed on a thread
 * of its own while the command parses its arguments and connects its catalog; anything that asks
 * for a digest before then gets the JDK's. And its native library (9 MB, in a signed jar whose
 * every byte the JDK hashes while the provider copies it out on each start) is kept in the
 * directory the launcher names ({@code -Dlakeops.native-cache}) and on its {@code
 * java.library.path}: written once per provider version, then loaded from there.
 */
final class NativeCrypto {
  /** Set to {@code false} to keep the JDK's own providers. */
  static final String PROPERTY = "lakeops.native-crypto";

  /** The provider's switch from the library in its jar to one on {@code java.library.path}. */
  private static final String EXTERNAL_LIBRARY_PROPERTY =
      "com.amazon.corretto.crypto.provider.useExternalLib";

  private static final String LIBRARY_NAME = "amazonCorrettoCryptoProvider";

  private NativeCrypto() {}

  /** Starts installing the provider on a daemon thread and returns at once. */
  static void installInBackground() {
    if (!Boolean.parseBoolean(System.getProperty(PROPERTY, "true"))) {
      return;
    }
    Thread thread = new Thread(NativeCrypto::install, "lakeops-native-crypto");
    thread.setDaemon(true);
    thread.start();
  }

  /** Installs the provider on the calling thread. */
  static void install() {
    try {
      useKeptLibrary();
      if (AmazonCorrettoCryptoProvider.INSTANCE.getLoadingError() == null) {
        AmazonCorrettoCryptoProvider.install();
      }
    } catch (LinkageError | RuntimeException e) {
      // no native library for this platform: the JDK's providers serve as before
    }
  }

  /**
   * Points the provider at the kept copy of its library when the launcher put the kept directory on
   * {@code java.library.path}, writing the copy first if it is missing or of another version.
   */
  private static void useKeptLibrary() {
    String cache = System.getProperty(KeptNativeLibrary.CACHE_PROPERTY);
    if (cache == null || System.getProperty(EXTERNAL_LIBRARY_PROPERTY) != null) {
      return;
    }
    Path directory = Path.of(cache, "jni").toAbsolutePath();
    if (!onLibraryPath(directory)) {
      return;
    }
    try {
      String version = providerVersion();
      String fileName = System.mapLibraryName(LIBRARY_NAME);
      Path library = directory.resolve(fileName);
      Path versionFile = directory.resolve(fileName + ".version");
      if (!Files.isRegularFile(library) || !version.equals(keptVersion(versionFile))) {
        keep(fileName, library, versionFile, version);
      }
      System.setProperty(EXTERNAL_LIBRARY_PROPERTY, "true");
    } catch (IOException | RuntimeException e) {
      // the provider copies its library out of its jar as it always does
    }
  }

  private static boolean onLibraryPath(Path directory) {
    String path = System.getProperty("java.library.path", "");
    return Arrays.stream(path.split(File.pathSeparator))
        .filter(entry -> !entry.isBlank())
        .anyMatch(entry -> Path.of(entry).toAbsolutePath().normalize().equals(directory));
  }

  /**
   * The provider's jar by name, size and time: reading anything out of the signed jar through the
   * class loader would make the JDK check the jar's signature first.
   */
  private static String providerVersion() throws IOException {
    try {
      Path jar =
          Path.of(
              AmazonCorrettoCryptoProvider.class
                  .getProtectionDomain()
                  .getCodeSource()
                  .getLocation()
                  .toURI());
      return jar.getFileName()
          + " "
          + Files.size(jar)
          + " "
          + Files.getLastModifiedTime(jar).toMillis();
    } catch (URISyntaxException | RuntimeException e) {
      throw new IOException("cannot locate the provider's jar", e);
    }
  }

  private static String keptVersion(Path versionFile) throws IOException {
    return Files.isRegularFile(versionFile)
        ? Files.readString(versionFile, StandardCharsets.UTF_8).strip()
        : "";
  }

  private static void keep(String fileName, Path library, Path versionFile, String version)
      throws IOException {
    try (InputStream in = AmazonCorrettoCryptoProvider.class.getResourceAsStream(fileName)) {
      if (in == null) {
        throw new IOException("no " + fileName + " in the provider's jar");
      }
      WholeFileWrites.write(in, library);
    }
    WholeFileWrites.write(
        new ByteArrayInputStream(version.getBytes(StandardCharsets.UTF_8)), versionFile);
  }
}
