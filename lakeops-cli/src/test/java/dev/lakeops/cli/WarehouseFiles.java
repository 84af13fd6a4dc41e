package dev.lakeops.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.stream.Stream;

/** Every file under a warehouse folder with the SHA-256 of its bytes, to compare before/after. */
record WarehouseFiles(Map<String, String> checksums) {
  WarehouseFiles {
    checksums = Map.copyOf(checksums);
  }

  /** Every file under {@code root}. */
  static WarehouseFiles of(Path root) {
    return of(root, path -> true);
  }

  /** The files under {@code root} whose path relative to it {@code included} accepts. */
  static WarehouseFiles of(Path root, Predicate<Path> included) {
    Map<String, String> checksums = new TreeMap<>();
    if (!Files.exists(root)) {
      return new WarehouseFiles(checksums);
    }
    try (Stream<Path> paths = Files.walk(root)) {
      paths
          .filter(Files::isRegularFile)
          .filter(path -> included.test(root.relativize(path)))
          .forEach(path -> checksums.put(root.relativize(path).toString(), sha256(path)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new WarehouseFiles(checksums);
  }

  /** Metadata versions ({@code *.metadata.json}) of the table under {@code tableDirectory}. */
  static long metadataVersions(Path tableDirectory) {
    try (Stream<Path> paths = Files.list(tableDirectory.resolve("metadata"))) {
      return paths.filter(path -> path.toString().endsWith(".metadata.json")).count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String sha256(Path file) {
    try (InputStream input = Files.newInputStream(file)) {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      byte[] buffer = new byte[64 * 1024];
      int read;
      while ((read = input.read(buffer)) > 0) {
        digest.update(buffer, 0, read);
      }
      return HexFormat.of().formatHex(digest.digest());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
