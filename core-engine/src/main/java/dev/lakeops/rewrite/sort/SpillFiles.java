package dev.lakeops.rewrite.sort;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The spill files of one sort: a private directory under the spill directory, created on the first
 * spill and removed with everything in it on {@link #close()}, whether the sort succeeded or not. A
 * JVM shutdown hook removes the directories of sorts still running when the JVM exits.
 */
final class SpillFiles implements AutoCloseable {
  private static final Set<Path> LIVE_DIRECTORIES = ConcurrentHashMap.newKeySet();

  static {
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> LIVE_DIRECTORIES.forEach(SpillFiles::deleteTree), "lakeops-spill-cleanup"));
  }

  private final Path parent;
  private final String name;
  private Path directory;
  private int created;
  private long spilledBytes;
  private boolean closed;

  SpillFiles(Path parent, String name) {
    this.parent = requireNonNull(parent, "parent is null");
    this.name = requireNonNull(name, "name is null");
  }

  /** A new, empty run file. */
  Path newRunFile() throws IOException {
    if (closed) {
      throw new IllegalStateException("Spill files of " + name + " are closed");
    }
    if (directory == null) {
      Files.createDirectories(parent);
      directory = parent.resolve("lakeops-spill-" + name + "-" + UUID.randomUUID());
      LIVE_DIRECTORIES.add(directory);
      Files.createDirectory(directory);
    }
    created++;
    return directory.resolve(String.format("run-%05d.arrow", created));
  }

  /** Counts a finished run file towards the spill totals. */
  void finished(Path runFile) throws IOException {
    spilledBytes += Files.size(runFile);
  }

  void delete(Path runFile) throws IOException {
    Files.deleteIfExists(runFile);
  }

  int filesWritten() {
    return created;
  }

  long spilledBytes() {
    return spilledBytes;
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (directory != null) {
      deleteTree(directory);
      LIVE_DIRECTORIES.remove(directory);
    }
  }

  private static void deleteTree(Path root) {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        try {
          Files.deleteIfExists(path);
        } catch (NoSuchFileException ignored) {
          // already gone
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot delete spill directory " + root, e);
    }
  }
}
