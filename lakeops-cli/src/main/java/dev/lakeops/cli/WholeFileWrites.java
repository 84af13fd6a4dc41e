package dev.lakeops.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Writes a file whole or not at all: into a temporary file beside it, then moved into place, so
 * that another process reading or writing the same file never sees a part of it.
 */
final class WholeFileWrites {
  private WholeFileWrites() {}

  /** Writes what {@code in} holds to {@code target}, creating its directory if needed. */
  static void write(InputStream in, Path target) throws IOException {
    Path directory = target.toAbsolutePath().getParent();
    Files.createDirectories(directory);
    Path temporary = Files.createTempFile(directory, target.getFileName().toString(), ".tmp");
    // a short command can exit while a daemon thread still writes
    temporary.toFile().deleteOnExit();
    try {
      Files.copy(in, temporary, StandardCopyOption.REPLACE_EXISTING);
      Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(temporary);
    }
  }
}
