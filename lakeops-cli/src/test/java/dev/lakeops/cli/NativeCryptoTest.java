package dev.lakeops.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.Security;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The provider's library is written once into the kept directory and loaded from there: each run is
 * a JVM of its own, since {@code java.library.path} and the security providers are fixed per
 * process.
 */
class NativeCryptoTest {
  @TempDir Path cache;

  @Test
  void keepsTheProvidersLibraryOnceAndLoadsItFromThere() throws Exception {
    assumeTrue(
        System.getProperty("os.name").startsWith("Linux")
            && System.getProperty("os.arch").equals("amd64"),
        "the provider's native library is for Linux on x86-64");
    Path library =
        cache.resolve("jni").resolve(System.mapLibraryName("amazonCorrettoCryptoProvider"));

    assertThat(probe()).containsExactly("AmazonCorrettoCryptoProvider", "true");
    assertThat(library).isRegularFile();
    assertThat(
            Files.readString(
                library.resolveSibling(library.getFileName() + ".version"), StandardCharsets.UTF_8))
        .startsWith("AmazonCorrettoCryptoProvider-2.5.0-linux-x86_64.jar ");

    FileTime written = Files.getLastModifiedTime(library);
    Files.setLastModifiedTime(library, FileTime.fromMillis(written.toMillis() - 60_000));
    FileTime aged = Files.getLastModifiedTime(library);
    assertThat(probe()).containsExactly("AmazonCorrettoCryptoProvider", "true");
    assertThat(Files.getLastModifiedTime(library)).isEqualTo(aged);
  }

  private List<String> probe() throws IOException, InterruptedException {
    Path output = cache.resolve("probe.txt");
    Process process =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-D" + KeptNativeLibrary.CACHE_PROPERTY + "=" + cache,
                "-Djava.library.path=" + cache.resolve("jni"),
                "-cp",
                System.getProperty("java.class.path"),
                Probe.class.getName(),
                output.toString())
            .redirectErrorStream(true)
            .redirectOutput(cache.resolve("probe.log").toFile())
            .start();
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue())
        .as(Files.readString(cache.resolve("probe.log"), StandardCharsets.UTF_8))
        .isZero();
    return Files.readAllLines(output, StandardCharsets.UTF_8);
  }

  /** Installs the provider and writes the first provider's name and whether it was kept. */
  public static final class Probe {
    private Probe() {}

    public static void main(String[] args) throws Exception {
      NativeCrypto.install();
      MessageDigest.getInstance("SHA-256").digest(new byte[] {1, 2, 3});
      Files.write(
          Path.of(args[0]),
          List.of(
              Security.getProviders()[0].getName(),
              System.getProperty("com.amazon.corretto.crypto.provider.useExternalLib", "false")));
    }
  }
}
